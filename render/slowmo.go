package render

import (
	"fmt"
	"time"
)

// Slow motion (M, -slow): the demo's whole match runs a quarter or an eighth as fast, so each
// 50 ms tick can be seen. Everything slows together and nothing else changes: the server's
// clock (DemoOptions.ServerRate), the clock both players' Games and the bots run on
// (DemoOptions.Clock), and every delay of both players' links (view.SlowConditions). Game
// time stays continuous and every tick is still one 50 ms step, so a recording made in slow
// motion replays and verifies like any other.

// canSlow reports whether the window can slow its match: only the demo owns its server.
func (g *window) canSlow() bool { return g.isDemo() && g.serverRate != nil && g.playback == nil }

// setSlow runs the demo factor times slower than real time (1: real time).
func (g *window) setSlow(factor int) {
	factor = max(factor, 1)
	if !g.canSlow() || factor == g.slow {
		return
	}
	rate := 1 / float64(factor)
	now := time.Now()
	g.serverRate(rate)
	g.clock.SetRate(now, rate)
	g.slow = factor
	for _, p := range g.panes {
		p.setSlow(factor)
	}
	g.viewChanged = true
	if g.opts.Report != nil {
		fmt.Fprintf(g.opts.Report, "tankclient: speed 1/%d\n", factor)
	}
}
