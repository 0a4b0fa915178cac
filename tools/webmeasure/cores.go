package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"time"

	"tanknet/internal/cdp"
	"tanknet/internal/pause"
)

// processCPU is the CPU time each of the browser's processes has used since it started, by
// its id (the system's process id), with its kind as Chromium's SystemInfo.getProcessInfo
// names it: "browser", "renderer", "GPU", or a utility process's service such as
// "network.mojom.NetworkService".
type processCPU map[int]processTime

// processTime is one process's kind and the CPU seconds it has used, all its threads.
type processTime struct {
	kind    string
	seconds float64
}

// readProcessCPU asks the browser for its processes' CPU time so far.
func readProcessCPU(ctx context.Context, b *cdp.Browser) (processCPU, error) {
	var res struct {
		ProcessInfo []struct {
			Type    string  `json:"type"`
			ID      int     `json:"id"`
			CPUTime float64 `json:"cpuTime"`
		} `json:"processInfo"`
	}
	if err := b.Call(ctx, "", "SystemInfo.getProcessInfo", nil, &res); err != nil {
		return nil, err
	}
	out := processCPU{}
	for _, p := range res.ProcessInfo {
		out[p.ID] = processTime{kind: p.Type, seconds: p.CPUTime}
	}
	return out, nil
}

// coresByKind returns the cores each kind of process used between two readings over
// elapsed. A process alive at both counts what it used between them; one that started
// between them counts all it used (an id whose kind or time does not match the first
// reading is a new process the system gave the old one's id); one that ended between them
// cannot be counted, as nothing reads what it used last.
func coresByKind(before, after processCPU, elapsed time.Duration) map[string]float64 {
	if elapsed <= 0 {
		return nil
	}
	sums := map[string]float64{}
	for id, a := range after {
		used := a.seconds
		if b, ok := before[id]; ok && b.kind == a.kind && a.seconds >= b.seconds {
			used -= b.seconds
		}
		sums[a.kind] += used
	}
	out := map[string]float64{}
	for kind, s := range sums {
		out[kind] = math.Round(s/elapsed.Seconds()*100) / 100
	}
	return out
}

// coresSettle is how long after its last page was opened a load run's cores are first read:
// a page joins within about a second of opening, and loading it is not playing.
const coresSettle = 3 * time.Second

// browserCores measures the cores the browser's processes use while a load run's pages
// play: from coresSettle after opened is closed (every page opened) for half of d, the
// run's duration. Drawing in software, the GPU process, which runs the pages' WebGL and
// composites them, takes much of it (1.4 of two cores for one 1280x720 page), and every
// core it takes is one the pages' network and game wait for. It returns nil when ctx ends
// first, and says why on stderr when the browser cannot say.
func browserCores(ctx context.Context, b *cdp.Browser, opened <-chan struct{}, d time.Duration) map[string]float64 {
	select {
	case <-opened:
	case <-ctx.Done():
		return nil
	}
	if !pause.For(ctx, coresSettle) {
		return nil
	}
	before, err := readProcessCPU(ctx, b)
	if err != nil {
		return saidWhy(ctx, err)
	}
	start := time.Now()
	if !pause.For(ctx, d/2) {
		return nil
	}
	after, err := readProcessCPU(ctx, b)
	if err != nil {
		return saidWhy(ctx, err)
	}
	return coresByKind(before, after, time.Since(start))
}

// saidWhy says on stderr why the browser's process CPU could not be read, unless ctx ended
// (the run was given up, which says why itself), and returns no figure.
func saidWhy(ctx context.Context, err error) map[string]float64 {
	if ctx.Err() == nil {
		fmt.Fprintln(os.Stderr, "webmeasure: the browser's process CPU:", err)
	}
	return nil
}
