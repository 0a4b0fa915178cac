// Package agones is a client of the Agones SDK sidecar that runs beside a game server in
// its Kubernetes pod, spoken over the sidecar's HTTP/JSON gateway on localhost: Ready,
// Health, Shutdown, the GameServer and its watch stream, labels and counters.
//
// It knows nothing of the game and never stops it: every request has a time limit, every
// failure comes back as an error (never a panic), and the sidecar's answers are treated
// as untrusted bytes (sizes capped, JSON checked). The long-running helpers (KeepHealthy,
// CounterSync, Watch) run on goroutines their caller owns and ends with a context;
// KeepHealthy and CounterSync let a request in flight finish before they return, so
// nothing they sent reaches the sidecar after the caller's next call.
//
// It is not the official Agones Go SDK (which speaks gRPC and is not available to this
// module); use that one where it is.
package agones
