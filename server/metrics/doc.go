// Package metrics serves a running tanknet server's counters as Prometheus text, with Go's
// profiler beside them, for the people who run it:
//
//	GET /metrics        tick duration histogram, players, traffic, drops, rejects, inputs
//	GET /debug/pprof/   CPU, heap, goroutine and other profiles (net/http/pprof)
//	POST /drain         start the drain a SIGTERM starts (tankserver -drain), if given one
//
// It only reads server.Stats when scraped: the server and its tick loop know nothing of
// Prometheus, and a server without a metrics listener pays nothing for it. Besides the
// tanknet_ metrics it exports the standard process_ and go_ collectors; process_cpu_seconds_total
// is what tanksim divides by wall time to report server_cpu_cores.
//
// Each tanknet_ metric is declared once, in plain code, beside the field of server.Stats it
// reads: its name, help, type and labels, and a function returning its value, as in
//
//	counter("joins_total", "Handshakes accepted.",
//		func(st *server.Stats) uint64 { return st.Joins }),
//
// The declarations are grouped by the part of the server that counts: players.go,
// inputs.go, play.go, traffic.go, rooms.go (per room) and gate.go; family.go has the kinds
// of metric they use, and collector.go reads one Stats at every scrape and sends them all.
// To add a metric: a field of server.Stats (and the live count it is read from, in
// server/counts.go), a line in one of those files, a row in docs/PROTOCOL.md §11, and a line
// in the list of cmd/tankserver's TestMetrics_EveryFamilyExported.
package metrics
