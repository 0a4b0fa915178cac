package server

import (
	"runtime"
	"testing"
	"time"
)

// TestTickClock_CPUWithinWall: on a thread that works throughout, the tick clock reads a CPU
// time above zero and no longer than the wall time (beyond the clocks' granularity); work
// that sleeps reads less CPU than wall.
func TestTickClock_CPUWithinWall(t *testing.T) {
	runtime.LockOSThread() // startTick locks too; this keeps the Skip check on the same thread
	defer runtime.UnlockOSThread()
	if _, _, ok := threadCPU(); !ok {
		t.Skip("no thread CPU clock on", runtime.GOOS)
	}
	c := startTick()
	sum := 0
	for i := range 2_000_000 { // work, not waiting
		sum += i % 7
	}
	wall, cpu, ok := c.stop()
	if !ok || cpu <= 0 || cpu > wall+time.Millisecond {
		t.Fatalf("busy: stop() = wall %v, cpu %v, ok %v; want 0 < cpu <= wall (sum %d)", wall, cpu, ok, sum)
	}
	c = startTick()
	time.Sleep(20 * time.Millisecond) // waiting, not work: the point of the second clock
	wall, cpu, ok = c.stop()
	if !ok || cpu >= wall/2 {
		t.Fatalf("sleeping: stop() = wall %v, cpu %v, ok %v; want cpu well under wall", wall, cpu, ok)
	}
}
