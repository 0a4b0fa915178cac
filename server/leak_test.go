package server_test

import (
	"context"
	"io"
	"log/slog"
	"runtime"
	"sync"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/internal/servertest"
	"tanknet/server"
)

// TestLeak_ThousandConnectLeaveCycles connects and leaves 1000 times against one server
// (8 at a time), which keeps running: goroutines must come back to the baseline and the
// live heap to within 2 MB of it. The baseline is taken after a warm-up of 20 cycles, so
// one-time allocations (pools, the first sessions' buffers) do not count as leaks.
func TestLeak_ThousandConnectLeaveCycles(t *testing.T) {
	const cycles, parallel = 1000, 8
	cycle := func(addr string) error {
		sess, err := client.Dial(context.Background(), addr, "cycler", nil, 10*time.Second)
		if err != nil {
			return err
		}
		return sess.Close("cycle done")
	}
	quiet := func(c *server.Config) {
		c.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
		// Seats for every session a cycler may have left behind but the server has not yet
		// seen go: on a loaded machine a few leaves wait while the cyclers go on. This test
		// is about leaks, not about a full server.
		c.MaxPlayers = 256
	}

	srv := servertest.Start(t, quiet)
	idle := servertest.MeasureUsage() // the server up, nobody connected
	for range 20 {
		if err := cycle(srv.Addr); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := servertest.Settles(servertest.Usage{Goroutines: idle.Goroutines, Heap: 1 << 62}); !ok { // the warm-up's sessions end
		t.Fatalf("the warm-up left goroutines behind: %d, before it %d", runtime.NumGoroutine(), idle.Goroutines)
	}
	base := servertest.MeasureUsage()

	var wg sync.WaitGroup
	errs := make(chan error, cycles)
	next := make(chan struct{}, cycles)
	for range cycles {
		next <- struct{}{}
	}
	close(next)
	for range parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range next {
				if err := cycle(srv.Addr); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	failed := 0
	for err := range errs {
		if failed++; failed <= 3 {
			t.Error(err)
		}
	}
	busy := servertest.MeasureUsage()
	end := servertest.CheckSettles(t, base) // the server still up: its tables must have shrunk back too
	st := srv.Stats()
	if st.Joins != cycles+20 || failed != 0 || st.Gate.Admissions != 0 {
		t.Errorf("%d of %d cycles failed; server stats %+v: want every join seen and no address still admitted", failed, cycles, st)
	}
	t.Logf("baseline %d goroutines, %d KiB live heap; right after %d cycles %d, %d KiB; settled %d, %d KiB",
		base.Goroutines, base.Heap>>10, cycles, busy.Goroutines, busy.Heap>>10, end.Goroutines, end.Heap>>10)
}
