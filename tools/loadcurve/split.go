package main

import (
	"fmt"
	"os"
	"runtime"
	"strconv"

	"golang.org/x/sys/unix"
)

// splitCPUs gives the server the machine's first CPU and this process (the thin clients)
// every other one, so the clients' work never takes the server's core and its tick times
// are its own: it moves every thread of this process off CPU 0 (threads started later
// inherit that) and returns the command prefix that starts the server on CPU 0 alone (Go
// then runs the server with GOMAXPROCS 1: the figures are one core's).
func splitCPUs() ([]string, error) {
	n := runtime.NumCPU()
	if n < 2 {
		return nil, fmt.Errorf("-split needs two CPUs or more; this process may use %d", n)
	}
	var clients unix.CPUSet
	for cpu := 1; cpu < n; cpu++ {
		clients.Set(cpu)
	}
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return nil, fmt.Errorf("-split: %w", err)
	}
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		if err := unix.SchedSetaffinity(tid, &clients); err != nil {
			return nil, fmt.Errorf("-split: CPUs 1-%d for thread %d: %w", n-1, tid, err)
		}
	}
	return []string{"taskset", "-c", "0"}, nil
}
