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

// usage is what a process holds: goroutines, and live heap bytes after a full collection.
type usage struct {
	goroutines int
	heap       uint64
}

func measure() usage {
	runtime.GC()
	runtime.GC() // a second cycle frees what the first one's finalizers released
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return usage{goroutines: runtime.NumGoroutine(), heap: ms.HeapAlloc}
}

// maxHeapGrowth is how much more live heap than the baseline the leak checks accept.
const maxHeapGrowth = 2 << 20

// settles waits, up to 30 s, for the process to come back to base: no more goroutines than
// at the baseline and live heap within maxHeapGrowth of it. Goroutines end and sockets
// close on timers (a closed session lingers CloseLinger), so it polls rather than measures
// once. It reports whether it did, and the last measurement.
func settles(base usage) (usage, bool) {
	var now usage
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		now = measure()
		if now.goroutines <= base.goroutines && now.heap <= base.heap+maxHeapGrowth {
			return now, true
		}
	}
	return now, false
}

// checkSettles fails t unless the process settles back to base (see settles).
func checkSettles(t *testing.T, base usage) usage {
	t.Helper()
	now, ok := settles(base)
	if !ok {
		buf := make([]byte, 1<<20)
		t.Errorf("after 30 s: %d goroutines (baseline %d), live heap %d bytes (baseline %d, allowed +%d); goroutines:\n%s",
			now.goroutines, base.goroutines, now.heap, base.heap, maxHeapGrowth, buf[:runtime.Stack(buf, true)])
	}
	return now
}

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
	idle := measure() // the server up, nobody connected
	for range 20 {
		if err := cycle(srv.Addr); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := settles(usage{goroutines: idle.goroutines, heap: 1 << 62}); !ok { // the warm-up's sessions end
		t.Fatalf("the warm-up left goroutines behind: %d, before it %d", runtime.NumGoroutine(), idle.goroutines)
	}
	base := measure()

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
	busy := measure()
	end := checkSettles(t, base) // the server still up: its tables must have shrunk back too
	st := srv.Stats()
	if st.Joins != cycles+20 || failed != 0 || st.Gate.Admissions != 0 {
		t.Errorf("%d of %d cycles failed; server stats %+v: want every join seen and no address still admitted", failed, cycles, st)
	}
	t.Logf("baseline %d goroutines, %d KiB live heap; right after %d cycles %d, %d KiB; settled %d, %d KiB",
		base.goroutines, base.heap>>10, cycles, busy.goroutines, busy.heap>>10, end.goroutines, end.heap>>10)
}
