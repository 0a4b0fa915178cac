package main

import (
	"context"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"tanknet/internal/servertest"
	"tanknet/server"
)

// TestMain runs tanksim's main instead of the tests when TANKSIM_MAIN_ARGS is set, so a test
// can run the whole program, exit included, as a process of its own.
func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv("TANKSIM_MAIN_ARGS"); ok {
		os.Args = append([]string{"tanksim"}, strings.Fields(args)...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// leaveLog passes on the reason of every "player left" line a server logs.
type leaveLog struct{ reasons chan string }

func (l leaveLog) Enabled(context.Context, slog.Level) bool { return true }
func (l leaveLog) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l leaveLog) WithGroup(string) slog.Handler            { return l }
func (l leaveLog) Handle(_ context.Context, r slog.Record) error {
	if r.Message == "player left" {
		r.Attrs(func(a slog.Attr) bool {
			if a.Key == "reason" {
				l.reasons <- a.Value.String()
			}
			return true
		})
	}
	return nil
}

// TestExit_EveryBotsGoodbyeReachesTheServer: tanksim against a -server on a slow simulated
// link (150 ms each way) ends its process only after each bot's Goodbye has left, so the server hears every
// one of them rather than timing the bots out (which it did for some, when the process took
// the delayed Goodbyes down with it).
func TestExit_EveryBotsGoodbyeReachesTheServer(t *testing.T) {
	if testing.Short() {
		t.Skip("runs tanksim as a process against a real server")
	}
	const bots = 3
	log := leaveLog{reasons: make(chan string, 16)}
	srv := servertest.Start(t, func(c *server.Config) { c.Logger = slog.New(log) })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0])
	// A slow link that loses nothing: a Goodbye goes once, so a lost one would time out too.
	cmd.Env = append(os.Environ(), "TANKSIM_MAIN_ARGS=-server "+srv.Addr+" -bots 3 -duration 1s -net custom -latency 150ms")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tanksim: %v\n%s", err, out)
	}
	// Every bot leaves one way or the other: its Goodbye, or the server's idle timeout.
	var left []string
	timeout := time.NewTimer(3 * server.DefaultConfig().IdleTimeout)
	defer timeout.Stop()
	for len(left) < bots {
		select {
		case r := <-log.reasons:
			left = append(left, r)
		case <-timeout.C:
			t.Fatalf("the server saw %d of %d bots leave: %q", len(left), bots, left)
		}
	}
	for _, r := range left {
		if !strings.HasPrefix(r, "goodbye") {
			t.Errorf("a bot left the server for %q, want its goodbye", r)
		}
	}
}
