package server

import (
	"runtime"
	"time"
)

// tickClock times one tick's own work, on the room's goroutine: its wall time and, where
// the OS gives it and the goroutine stayed on one thread, the thread's CPU time. The two
// apart show how much of a slow tick was waiting (for a core, a lock, the scheduler) rather
// than working.
type tickClock struct {
	wall0 time.Time
	cpu0  time.Duration
	tid   int
	ok    bool
}

// startTick starts timing a tick and keeps the goroutine on its thread until stop: a
// goroutine that blocked mid-tick and came back on the same thread would otherwise count the
// CPU time of whatever ran there meanwhile.
func startTick() tickClock {
	runtime.LockOSThread()
	cpu, tid, ok := threadCPU()
	return tickClock{wall0: time.Now(), cpu0: cpu, tid: tid, ok: ok}
}

// stop ends the timing begun by startTick, on the same goroutine, and returns the tick's wall time and its CPU time; cpuOK is false when the CPU
// time is unknown (no thread clock, or the goroutine moved to another thread meanwhile).
func (c tickClock) stop() (wall, cpu time.Duration, cpuOK bool) {
	wall = time.Since(c.wall0)
	defer runtime.UnlockOSThread()
	if !c.ok {
		return wall, 0, false
	}
	now, tid, ok := threadCPU()
	if !ok || tid != c.tid || now < c.cpu0 {
		return wall, 0, false
	}
	return wall, now - c.cpu0, true
}
