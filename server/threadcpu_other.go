//go:build !linux

package server

import "time"

// threadCPU reports no thread CPU clock: only Linux's is read (threadcpu_linux.go), and the
// tick's CPU histogram stays empty elsewhere.
func threadCPU() (cpu time.Duration, tid int, ok bool) { return 0, 0, false }
