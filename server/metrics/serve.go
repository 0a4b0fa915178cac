package metrics

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"tanknet/server"
)

// Handler returns the HTTP handler for /metrics and /debug/pprof/, reading stats at every
// scrape. stats is usually a running server's Stats method; extra collectors (tankserver's
// browser door, with -web) join the same registry. With drain set it also answers POST
// /drain by calling it: an operator's (or a script's) way to start the same drain a SIGTERM
// starts. It fails when a collector cannot join the registry (a name taken twice).
func Handler(stats func() server.Stats, drain func(), extra ...prometheus.Collector) (http.Handler, error) {
	reg := prometheus.NewRegistry()
	all := []prometheus.Collector{
		Collector(stats),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		collectors.NewGoCollector(),
	}
	for _, c := range append(all, extra...) {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("metrics: %w", err)
		}
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("/debug/pprof/", pprof.Index) // also serves heap, goroutine, allocs, ...
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	if drain != nil {
		mux.HandleFunc("/drain", drainHandler(drain))
	}
	return mux, nil
}

// drainHandler starts the drain on POST and says what it does; other methods get 405.
func drainHandler(drain func()) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			http.Error(w, "POST /drain starts the drain; nothing else is served here", http.StatusMethodNotAllowed)
			return
		}
		drain()
		w.WriteHeader(http.StatusAccepted)
		fmt.Fprintln(w, "draining: new players are refused; the game goes on until the last player leaves or -drain has passed (with -drain 0, it stops now)")
	}
}

// Listen opens the TCP listener for Serve, so a caller learns a bad address before the game
// starts and can print the port it got for ":0".
func Listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("metrics: listen %s: %w", addr, err)
	}
	return ln, nil
}

// shutdownTimeout bounds how long Serve waits for scrapes in flight when ctx ends; a CPU
// profile in progress is cut short.
const shutdownTimeout = 2 * time.Second

// Serve answers Handler(stats, drain, extra...) on ln until ctx is done, then closes ln. It
// returns nil after that shutdown and the error otherwise (closing ln if Handler failed).
func Serve(ctx context.Context, ln net.Listener, stats func() server.Stats, drain func(), extra ...prometheus.Collector) error {
	h, err := Handler(stats, drain, extra...)
	if err != nil {
		ln.Close()
		return err
	}
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("metrics: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		hs.Close()
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("metrics: %w", err)
	}
	return nil
}
