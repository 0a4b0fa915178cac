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
package metrics
