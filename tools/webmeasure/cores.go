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

// processCPU is the CPU time, in seconds, each of the browser's processes has used so far,
// by its id, with its kind ("browser", "renderer", "GPU", "utility", ...: what Chromium's
// SystemInfo.getProcessInfo calls it).
type processCPU map[int]processTime

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
// elapsed: a process alive at both counts, one that started or ended between them does not.
func coresByKind(before, after processCPU, elapsed time.Duration) map[string]float64 {
	if elapsed <= 0 {
		return nil
	}
	sums := map[string]float64{}
	for id, a := range after {
		if b, ok := before[id]; ok && a.seconds >= b.seconds {
			sums[a.kind] += a.seconds - b.seconds
		}
	}
	out := map[string]float64{}
	for kind, s := range sums {
		out[kind] = math.Round(s/elapsed.Seconds()*100) / 100
	}
	return out
}

// browserCores measures the cores the browser's processes use in the middle half of a load
// run that plays for d from now (its pages join in the first quarter): on a machine that
// draws in software the GPU process, which runs WebGL and composites the page, is most of
// it, and every core it takes is one the pages' network and game wait for. It returns nil,
// and says why on stderr, when the browser cannot say.
func browserCores(ctx context.Context, b *cdp.Browser, d time.Duration) map[string]float64 {
	if !pause.For(ctx, d/4) {
		return nil
	}
	before, err := readProcessCPU(ctx, b)
	if err != nil {
		fmt.Fprintln(os.Stderr, "webmeasure: the browser's process CPU:", err)
		return nil
	}
	start := time.Now()
	if !pause.For(ctx, d/2) {
		return nil
	}
	after, err := readProcessCPU(ctx, b)
	if err != nil {
		fmt.Fprintln(os.Stderr, "webmeasure: the browser's process CPU:", err)
		return nil
	}
	return coresByKind(before, after, time.Since(start))
}
