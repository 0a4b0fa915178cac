package server

import (
	"time"

	"tanknet/netcode"
)

// A shot's views are judged only against what its client could have drawn: states of tanks
// the server sent that client, no further in the past than the client's measured round trip
// and interpolation delay allow.

const (
	// drawDelayAllowance is the most interpolation delay a view's age is allowed: the
	// default Interpolator's MaxDelay, the longest its adaptive timeline renders behind.
	drawDelayAllowance = 400 * time.Millisecond
	// rewindTolerance is what a view's age may exceed the round trip and drawing delay by:
	// the ticks a Fire waits to be judged behind its move, and one retransmission.
	rewindTolerance = 250 * time.Millisecond
)

// shownLog is, for one client on an arena with interest management, the other tanks each
// recent snapshot sent it, by tick modulo its length.
type shownLog []shownTick

// shownTick is the ids of the other tanks one tick's snapshot sent, increasing.
type shownTick struct {
	tick uint32
	ids  []uint32
}

// record notes that tick's snapshot sent ids (increasing), reusing the slot of an old tick.
func (l *shownLog) record(tick uint32, ids []uint32, keep int) {
	if len(*l) == 0 {
		*l = make(shownLog, keep)
	}
	s := &(*l)[int(tick)%len(*l)]
	s.tick, s.ids = tick, append(s.ids[:0], ids...)
}

// has reports whether tick's snapshot, still remembered, sent tank id.
func (l shownLog) has(tick, id uint32) bool {
	if len(l) == 0 || tick == 0 {
		return false
	}
	s := &l[int(tick)%len(l)]
	return s.tick == tick && has(s.ids, id)
}

// wasSent reports whether the server sent p the state of tank id at tick: with interest
// management when p's view held it then, without when p was in the game by then and so was
// tank id (that tick's snapshot, still in the history, showed it).
func (w *world) wasSent(p *player, id, tick uint32) bool {
	if w.interest == nil {
		_, shown := w.hist.find(tick, id)
		return tick >= p.firstTick && shown
	}
	return p.view.shown.has(tick, id)
}

// maxRewind is how far back a view of p's may lie behind the judging tick: its measured
// round trip, the drawing delay and the tolerance, within the rules' rewind window.
func (w *world) maxRewind(p *player) time.Duration {
	return min(p.peer.rtt()+drawDelayAllowance+rewindTolerance, w.cfg.Rules.RewindWindow)
}

// viewRecent reports whether view v of p's lies no further back than maxRewind.
func (w *world) viewRecent(p *player, v netcode.View) bool {
	age := time.Duration((float64(w.tick) - v.Tick()) * float64(netcode.StepInterval))
	return age <= w.maxRewind(p)
}

// viewSent reports whether both states view v of tank id blends were sent to p.
func (w *world) viewSent(p *player, id uint32, v netcode.View) bool {
	return w.wasSent(p, id, v.From) && w.wasSent(p, id, v.To)
}
