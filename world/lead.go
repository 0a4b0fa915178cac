package world

import (
	"time"

	"tanknet/netcode"
)

// A server whose process stops or starves for CPU runs its ticks late, and when it goes
// on, its players' inputs of the whole pause arrive at once. None of that is the players'
// doing, so a client's inputs may run ahead of its last applied one by the configured lead
// plus every tick the server failed to run. That grace holds for a while after the server
// runs again (a player silent across the pause may speak that late, its whole backlog at
// once) and then shrinks by a tick each tick, as the backlogs are applied.

// maxLeadGrace bounds the lead a paused server grants: ten minutes of ticks.
const maxLeadGrace = 20 * 60 * 10

// leadGrace is the extra input lead a late-running server owes its clients.
type leadGrace struct {
	ticks uint32 // extra ticks of lead
	held  uint32 // ticks before ticks starts to shrink
}

// Owe tells the world that this tick comes gap after the one before. When ticks were
// missed, their count is added to the input lead and held for hold; otherwise the extra
// lead shrinks by a tick.
func (w *World) Owe(gap, hold time.Duration) {
	g := &w.lead
	if missed := gap/netcode.StepInterval - 1; missed > 0 {
		g.ticks = min(g.ticks+uint32(min(missed, maxLeadGrace)), maxLeadGrace)
		g.held = uint32(hold / netcode.StepInterval)
		return
	}
	switch {
	case g.held > 0:
		g.held--
	case g.ticks > 0:
		g.ticks--
	}
}

// inputLead is how far ahead of its last applied input a client's MoveInput may be now.
func (w *World) inputLead() uint32 { return w.cfg.InputLead + w.lead.ticks }

// LeadGrace is the extra input lead the world owes its clients now, in ticks (see Owe).
func (w *World) LeadGrace() uint32 { return w.lead.ticks }
