package server

import (
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTime is Linux's CLOCK_THREAD_CPUTIME_ID: the CPU time of the calling thread.
const clockThreadCPUTime = 3

// threadCPU returns the CPU time the calling OS thread has used and the thread's id, so a
// caller can tell whether its goroutine stayed on one thread between two readings (only
// then does their difference mean anything). ok is false when the clock cannot be read.
func threadCPU() (cpu time.Duration, tid int, ok bool) {
	// The goroutine may move to another thread between any two calls: the clock is read
	// between two readings of the thread's id, and only counts when they agree.
	tid = syscall.Gettid()
	var ts syscall.Timespec
	_, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 || syscall.Gettid() != tid {
		return 0, 0, false
	}
	return time.Duration(ts.Nano()), tid, true
}
