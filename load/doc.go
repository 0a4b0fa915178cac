// Package load is tanknet's load generator: thin clients that speak the whole protocol
// (handshake, a MoveInput every 50 ms on the stream and the repeated InputBatch datagram,
// snapshot acknowledgements, pings) over real KCP sessions, without prediction,
// interpolation or statistics, so that one process can hold a thousand players for a
// fraction of a core. Each checks that the server applies its inputs (its tank's
// acknowledged move tick catches up with every tick sent) and that snapshots arrive, and
// reports latency percentiles measured from each input's intended send time, so a client
// that falls behind its schedule shows the delay instead of hiding it (coordinated omission,
// as wrk2 and HdrHistogram avoid it).
//
// A run takes a Config (DefaultConfig, Validate) and Run returns a Report. cmd/tankload is its
// command line and tools/loadcurve measures a server's cost with it as players grow.
//
// load never draws and never imports Ebitengine; it talks only to the server it is given.
package load
