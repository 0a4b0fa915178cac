// Package servertest starts tanknet servers on a loopback port for tests in other packages,
// and measures what a test's process holds (goroutines, live heap) for the leak checks.
//
// Package servertest is for tests only; programs start servers with server.New and Serve.
package servertest

import (
	"context"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"tanknet/netcode"
	"tanknet/server"
	"tanknet/transport"
)

// Server is a running test server.
type Server struct {
	*server.Server
	Addr string // "127.0.0.1:port"

	stopOnce sync.Once
	cancel   context.CancelFunc
	done     chan error
	err      error
}

// Start serves a game on a free 127.0.0.1 port until the test ends (or Stop). Tank contact is
// off, so prediction is exact; mutate may change any setting. The server logs to the test
// log, which is shown when the test fails.
func Start(t testing.TB, mutate func(*server.Config)) *Server {
	t.Helper()
	return StartObserved(t, mutate, nil)
}

// StartObserved is Start with observe, if not nil, registered as the server's tick observer
// (see server.Server.Observe).
func StartObserved(t testing.TB, mutate func(*server.Config), observe func(server.TickRecord)) *Server {
	t.Helper()
	cfg := server.DefaultConfig()
	cfg.Addr = "127.0.0.1:0"
	cfg.Rules.Contact = netcode.ContactOff
	cfg.Logger = slog.New(slog.NewTextHandler(testLog{t}, nil))
	if mutate != nil {
		mutate(&cfg)
	}
	srv, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if observe != nil {
		srv.Observe(observe)
	}
	pc, err := net.ListenPacket("udp", cfg.Addr)
	transport.TuneSocket(pc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{Server: srv, Addr: pc.LocalAddr().String(), cancel: cancel, done: make(chan error, 1)}
	go func() { s.done <- srv.Serve(ctx, pc) }()
	t.Cleanup(func() {
		if err := s.Stop(); err != nil {
			t.Errorf("server: %v", err)
		}
	})
	return s
}

// Stop shuts the server down and returns Serve's error, or an error if it takes longer than
// 10 s. Later calls return the same result.
func (s *Server) Stop() error {
	s.stopOnce.Do(func() {
		s.cancel()
		select {
		case s.err = <-s.done:
		case <-time.After(10 * time.Second):
			s.err = context.DeadlineExceeded
		}
	})
	return s.err
}

// testLog writes each log line to the test log.
type testLog struct{ t testing.TB }

func (w testLog) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}
