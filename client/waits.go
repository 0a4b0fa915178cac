package client

import (
	"math"
	"slices"
	"time"

	"tanknet/netcode"
)

// WaitLog keeps the server's reports of how long a Game's inputs waited in its buffer
// (Game.InputReport), one per server tick seen: what a page reports as its input wait and a
// window's frame report prints. A starved tick (no input of ours had arrived) counts as a
// wait one step short, -50 ms. Note it after Updates; a report seen twice (no new tick) is
// kept once. The zero value is ready to use.
type WaitLog struct {
	waits   []time.Duration
	starved int
	tick    uint32
}

// Note keeps g's newest input report, if it is of a server tick not noted yet, and reports
// whether it did. A Game sending its input on arrival (Game.InputOnArrival) has no buffer
// wait of its own to keep.
func (w *WaitLog) Note(g *Game) bool {
	r, tick := g.InputReport(), g.Stats().ServerTick
	if tick == w.tick || g.InputOnArrival() || r == (netcode.InputReport{}) {
		return false
	}
	w.tick = tick
	wait := r.Wait
	if r.Starved {
		w.starved++
		wait = -netcode.StepInterval
	}
	w.waits = append(w.waits, wait)
	return true
}

// Waits returns the waits kept, one per tick, in order; the slice is the log's own.
func (w *WaitLog) Waits() []time.Duration { return w.waits }

// WaitSummary is a WaitLog's figures in milliseconds, as a page's report gives them.
type WaitSummary struct {
	Samples int     `json:"samples"`
	P50Ms   float64 `json:"p50_ms"`
	P90Ms   float64 `json:"p90_ms"`
	Starved int     `json:"starved"` // ticks that applied no input of ours: it had not arrived (counted -50 ms)
}

// Summary returns the waits' median and 90th percentile; zeros when none was noted.
func (w *WaitLog) Summary() WaitSummary {
	s := WaitSummary{Samples: len(w.waits), Starved: w.starved}
	if len(w.waits) == 0 {
		return s
	}
	sorted := slices.Clone(w.waits)
	slices.Sort(sorted)
	at := func(q float64) float64 {
		d := sorted[min(len(sorted)-1, int(q*float64(len(sorted))))]
		return math.Round(float64(d)/float64(time.Millisecond)*10) / 10
	}
	s.P50Ms, s.P90Ms = at(0.5), at(0.9)
	return s
}
