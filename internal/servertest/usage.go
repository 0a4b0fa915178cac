package servertest

import (
	"runtime"
	"testing"
	"time"
)

// Usage is what a process holds: goroutines, and live heap bytes after a full collection.
// The leak checks compare one taken before a run with one taken after it, so they belong to
// a test that has its process to itself (no parallel test beside it).
type Usage struct {
	Goroutines int
	Heap       uint64
}

// MeasureUsage collects garbage and returns what the process holds now.
func MeasureUsage() Usage {
	runtime.GC()
	runtime.GC() // a second cycle frees what the first one's finalizers released
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return Usage{Goroutines: runtime.NumGoroutine(), Heap: ms.HeapAlloc}
}

// MaxHeapGrowth is how much more live heap than the baseline the leak checks accept.
const MaxHeapGrowth = 2 << 20

// Settles waits, up to 30 s, for the process to come back to base: no more goroutines than
// at the baseline and live heap within MaxHeapGrowth of it. Goroutines end and sockets close
// on timers (a closed session lingers CloseLinger), so it polls rather than measures once.
// It reports whether it did, and the last measurement.
func Settles(base Usage) (Usage, bool) {
	var now Usage
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		now = MeasureUsage()
		if now.Goroutines <= base.Goroutines && now.Heap <= base.Heap+MaxHeapGrowth {
			return now, true
		}
	}
	return now, false
}

// CheckSettles fails t unless the process settles back to base (see Settles), listing every
// goroutine when it does not.
func CheckSettles(t *testing.T, base Usage) Usage {
	t.Helper()
	now, ok := Settles(base)
	if !ok {
		buf := make([]byte, 1<<20)
		t.Errorf("after 30 s: %d goroutines (baseline %d), live heap %d bytes (baseline %d, allowed +%d); goroutines:\n%s",
			now.Goroutines, base.Goroutines, now.Heap, base.Heap, MaxHeapGrowth, buf[:runtime.Stack(buf, true)])
	}
	return now
}
