package render

import (
	"tanknet/netcode"
	"tanknet/render/view"
)

// cycleContact asks the demo's server to switch its room to the contact mode after the one
// last asked for (or, the first time, the one the near player plays by): predicted, server,
// off. The players hear of it in a RulesChanged; their HUDs and the server pane's title
// change when it arrives.
func (g *window) cycleContact() {
	cur := g.contactAsked
	if cur == netcode.ContactUnspecified {
		cur = g.panes[0].game.Rules().Contact
	}
	next := view.NextContact(cur)
	if g.contactErr = g.setContact(next); g.contactErr == nil {
		g.contactAsked = next
	}
	g.viewChanged = true
}

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
