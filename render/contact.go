package render

import (
	"tanknet/netcode"
	"tanknet/render/view"
)

// paneContact is what contact did to one client since its room's contact mode last changed,
// for its HUD line and its timeline strip.
type paneContact struct {
	mode     netcode.ContactMode
	base     netcode.LocalCounters // the client's counters when mode began
	now      netcode.LocalCounters
	pushes   []uint32 // move ticks of recent inputs that carried a push, oldest first
	lastPush uint32   // the newest of them
}

// observe notes the client's contact mode and counters after an update, and the pushes of
// its inputs not yet seen.
func (c *paneContact) observe(mode netcode.ContactMode, l *netcode.Local) {
	c.now = l.Counters()
	if mode != c.mode {
		c.mode, c.base = mode, c.now
	}
	for _, in := range l.Pending() {
		if in.Tick > c.lastPush && !in.Push.IsZero() {
			c.pushes = remember(c.pushes, in.Tick)
			c.lastPush = in.Tick
		}
	}
}

// contactCount is what the HUD counts of the pane's contact since its mode began.
func (p *clientPane) contactCount() view.ContactCount {
	b, n := p.contact.base, p.contact.now
	return view.ContactCount{Pushes: n.Pushes - b.Pushes,
		Corrections: n.CorrectionsStarted + n.CorrectionsFolded - b.CorrectionsStarted - b.CorrectionsFolded,
		Snaps:       n.Snaps - b.Snaps}
}
