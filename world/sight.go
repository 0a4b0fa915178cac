package world

import (
	"slices"
	"time"

	"tanknet/netcode"
)

// A shot's views are judged only against what its client could have drawn: states of tanks
// the server sent that client, no further in the past than the client's measured round trip
// and interpolation delay allow.
//
// What a client was sent, and its round trip, are the client's facts, which a recording
// does not keep. While Replay judges a recorded shot again (w.rejudge), the shot is taken to
// have passed the checks that rest on them: its views were sent (the history must still hold
// their states to rewind into), they lie within the rewind window, and a shot without lag
// compensation is judged against the tanks recorded in its Sighted.

const (
	// drawDelayAllowance is the most interpolation delay a view's age is allowed: the
	// default Interpolator's MaxDelay, the longest its adaptive timeline renders behind.
	drawDelayAllowance = 400 * time.Millisecond
	// rewindTolerance is what a view's age may exceed the round trip and drawing delay by:
	// the ticks a Fire waits to be judged behind its move, and one retransmission.
	rewindTolerance = 250 * time.Millisecond
)

// wasSent reports whether t's client was sent the state of tank id at tick: with interest
// management when its client says so, without when t was in the game by then and so was
// tank id (that tick's snapshot, still in the history, showed it).
func (w *World) wasSent(t *Tank, id, tick uint32) bool {
	if w.rejudge != nil {
		return true
	}
	if !w.cfg.Interest || t.client == nil {
		_, shown := w.hist.find(tick, id)
		return tick >= t.firstTick && shown
	}
	return t.client.Sent(id, tick)
}

// inView reports whether t was sent o's tank in the newest snapshot t could have drawn
// (the previous tick's), as wasSent tells. A hit without lag compensation can only strike a
// tank the shooter was sent: without interest management too, a tank that joined since that
// snapshot is not there to be hit.
func (w *World) inView(t, o *Tank) bool {
	if w.rejudge != nil {
		return slices.Contains(w.rejudge.Sighted, o.id)
	}
	return w.wasSent(t, o.id, w.tick-1)
}

// maxRewind is how far back a view of t's may lie behind the judging tick: its measured
// round trip, the drawing delay and the tolerance, within the rules' rewind window.
func (w *World) maxRewind(t *Tank) time.Duration {
	if w.rejudge != nil {
		return w.cfg.Rules.RewindWindow
	}
	rtt := time.Duration(0)
	if t.client != nil {
		rtt = t.client.RTT()
	}
	return min(rtt+drawDelayAllowance+rewindTolerance, w.cfg.Rules.RewindWindow)
}

// viewRecent reports whether view v of t's lies no further back than maxRewind.
func (w *World) viewRecent(t *Tank, v netcode.View) bool {
	age := time.Duration((float64(w.tick) - v.Tick()) * float64(netcode.StepInterval))
	return age <= w.maxRewind(t)
}

// viewSent reports whether both states view v of tank id blends were sent to t's client.
func (w *World) viewSent(t *Tank, id uint32, v netcode.View) bool {
	return w.wasSent(t, id, v.From) && w.wasSent(t, id, v.To)
}
