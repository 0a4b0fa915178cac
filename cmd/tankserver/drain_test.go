package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// fakeDrainer records Drain and lets the test say when the last player left.
type fakeDrainer struct {
	drains  atomic.Int32
	drained chan struct{}
}

func (f *fakeDrainer) Drain()                   { f.drains.Add(1) }
func (f *fakeDrainer) Drained() <-chan struct{} { return f.drained }

// waitDone fails t unless ctx ends within a generous bound.
func waitDone(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: the game's context was not cancelled", what)
	}
}

// stillRunning fails t if ctx has ended.
func stillRunning(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	if ctx.Err() != nil {
		t.Fatalf("%s: the game's context ended too early", what)
	}
}

func TestStopOnSignals(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	start := func(drain time.Duration) (*fakeDrainer, chan os.Signal, chan struct{}, context.Context) {
		f := &fakeDrainer{drained: make(chan struct{})}
		sigs, now := make(chan os.Signal, 2), make(chan struct{})
		ctx, cancel := stopOnSignals(context.Background(), f, drain, sigs, now, quiet)
		t.Cleanup(cancel)
		return f, sigs, now, ctx
	}

	t.Run("without a drain a signal stops at once", func(t *testing.T) {
		f, sigs, _, ctx := start(0)
		sigs <- syscall.SIGTERM
		waitDone(t, ctx, "SIGTERM with -drain 0")
		if n := f.drains.Load(); n != 0 {
			t.Errorf("Drain called %d times, want none", n)
		}
	})
	t.Run("a drain ends when the last player leaves", func(t *testing.T) {
		f, sigs, _, ctx := start(time.Hour)
		sigs <- syscall.SIGTERM
		for deadline := time.Now().Add(10 * time.Second); f.drains.Load() == 0; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("SIGTERM with -drain 1h: Drain never called")
			}
		}
		stillRunning(t, ctx, "draining with players in play")
		close(f.drained)
		waitDone(t, ctx, "the last player left")
	})
	t.Run("a second signal stops at once", func(t *testing.T) {
		_, sigs, _, ctx := start(time.Hour)
		sigs <- syscall.SIGTERM
		sigs <- os.Interrupt
		waitDone(t, ctx, "a second signal during an hour's drain")
	})
	t.Run("the drain's time runs out", func(t *testing.T) {
		_, sigs, _, ctx := start(time.Millisecond)
		sigs <- syscall.SIGTERM
		waitDone(t, ctx, "a 1 ms drain with players that never leave")
	})
	t.Run("an orchestrator's drain is the same drain", func(t *testing.T) {
		f, _, now, ctx := start(time.Hour)
		close(now)
		for deadline := time.Now().Add(10 * time.Second); f.drains.Load() == 0; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("drainNow: Drain never called")
			}
		}
		close(f.drained)
		waitDone(t, ctx, "drainNow, then the last player left")
	})
	t.Run("the signal after an orchestrator's drain is the first", func(t *testing.T) {
		logs := new(serverLog)
		f := &fakeDrainer{drained: make(chan struct{})}
		sigs, now := make(chan os.Signal, 2), make(chan struct{})
		ctx, cancel := stopOnSignals(context.Background(), f, time.Hour, sigs, now, slog.New(slog.NewTextHandler(logs, nil)))
		defer cancel()
		close(now)
		logs.waitFor(t, "draining before stopping")
		sigs <- syscall.SIGTERM // the orchestrator deleting the pod
		logs.waitFor(t, "already draining")
		stillRunning(t, ctx, "drainNow, then one SIGTERM")
		sigs <- syscall.SIGINT
		waitDone(t, ctx, "drainNow, then two signals")
		if n := f.drains.Load(); n != 1 {
			t.Errorf("Drain called %d times, want 1", n)
		}
	})
}
