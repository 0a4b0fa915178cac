package agones_test

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tanknet/agones"
	"tanknet/agones/agonestest"
)

// TestCounterSync_OnlyTheNewestValueIsSent holds the sidecar stuck while a hundred values
// are set, then lets it go: the counter ends at the last value, in at most two requests
// (the one stuck, then the newest), never the hundred.
func TestCounterSync_OnlyTheNewestValueIsSent(t *testing.T) {
	sc := agonestest.New(t, agones.Counter{Name: "players", Capacity: 256})
	counters := agones.New(sc.URL(), 30*time.Second).NewCounterSync()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sc.Hang(true)
	done := make(chan struct{})
	go func() { defer close(done); counters.Run(ctx, time.Millisecond, nil) }()
	for n := int64(1); n <= 100; n++ {
		counters.Set("players", n, 256) // never waits for the stuck sidecar
	}
	sc.Hang(false)
	sc.WaitFor(t, "players reach 100", func() bool { return sc.Counter("players").Count == 100 })
	if n := sc.Count("PATCH /v1beta1/counters/players"); n > 2 {
		t.Errorf("the sidecar got %d counter updates for 100 values set while it was stuck, want at most 2", n)
	}
	cancel()
	<-done
}

// TestCounterSync_RetriesAfterAFailure: a refused update is reported and sent again later,
// with no new Set.
func TestCounterSync_RetriesAfterAFailure(t *testing.T) {
	sc := agonestest.New(t, agones.Counter{Name: "rooms", Capacity: 1})
	sc.Fail("/v1beta1/counters/rooms", http.StatusInternalServerError)
	s := agones.New(sc.URL(), 5*time.Second).NewCounterSync()
	ctx, cancel := context.WithCancel(context.Background())
	var failures, successes atomic.Int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.Run(ctx, 5*time.Millisecond, func(c agones.Counter, err error) {
			if err != nil {
				failures.Add(1)
			} else {
				successes.Add(1)
			}
		})
	}()
	s.Set("rooms", 1, 1)
	sc.WaitFor(t, "a refused update reported", func() bool { return failures.Load() > 0 })
	sc.Fail("/v1beta1/counters/rooms", 0)
	sc.WaitFor(t, "the update tried again and accepted", func() bool { return successes.Load() > 0 })
	s.Set("rooms", 1, 1) // the value the sidecar has: nothing to send
	s.Set("rooms", 0, 1)
	sc.WaitFor(t, "the next value accepted", func() bool { return successes.Load() > 1 })
	cancel()
	wg.Wait()
	if n := sc.Count("PATCH /v1beta1/counters/rooms"); successes.Load() != 2 || n != int(failures.Load())+2 {
		t.Errorf("%d updates sent, %d failed, %d accepted; want 2 accepted (a value accepted is not sent again)", n, failures.Load(), successes.Load())
	}
}

func TestKeepHealthy(t *testing.T) {
	sc := agonestest.New(t)
	c := agones.New(sc.URL(), 5*time.Second)
	ctx, cancel := context.WithCancel(context.Background())
	var failed atomic.Int32
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.KeepHealthy(ctx, time.Millisecond, func(err error) {
			if err != nil {
				failed.Add(1)
			}
		})
	}()
	sc.WaitFor(t, "three health pings", func() bool { return sc.Count("POST /health") >= 3 })
	sc.Fail("/health", http.StatusInternalServerError)
	sc.WaitFor(t, "a refused ping reported", func() bool { return failed.Load() > 0 })
	sc.Fail("/health", 0)
	n := sc.Count("POST /health")
	sc.WaitFor(t, "pings go on after the failures", func() bool { return sc.Count("POST /health") > n+2 })
	cancel()
	<-done
}
