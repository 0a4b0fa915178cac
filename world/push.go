package world

import "tanknet/netcode"

// PushRefusal is why the world applied a client's contact push as zero (docs/PROTOCOL.md
// §7c). The input's movement is applied either way.
type PushRefusal uint8

const (
	// PushNotPredicted: this world does not take pushes (contact is off, or the server
	// resolves it).
	PushNotPredicted PushRefusal = iota
	// PushTooLong: longer than netcode.MaxPush for the input's duration.
	PushTooLong
	// PushNoContact: longer than the tank's overlaps with the other tanks' states of the
	// rewind window allow (netcode.PushAllowance), none at all included.
	PushNoContact

	pushRefusals // how many there are
)

// Label returns the refusal as the metrics name it.
func (r PushRefusal) Label() string {
	switch r {
	case PushNotPredicted:
		return "not_predicted"
	case PushTooLong:
		return "too_long"
	}
	return "no_contact"
}

// PushRefusalLabels lists every PushRefusal's Label, in order.
func PushRefusalLabels() []string {
	out := make([]string, pushRefusals)
	for r := range pushRefusals {
		out[r] = r.Label()
	}
	return out
}

// pushRefusal says why t's push for in, after in's movement took t to moved, is refused,
// with ok false when the rules allow it: contact must be predicted, the push no longer
// than MaxPush, and no longer than the overlaps of moved with the states of the other tanks
// in the rewind window allow (a client pushes against the newest states it was sent).
func (w *World) pushRefusal(t *Tank, moved netcode.Pose, in netcode.PendingInput) (PushRefusal, bool) {
	a := &w.cfg.Arena
	if w.cfg.Rules.Contact != netcode.ContactPredicted {
		return PushNotPredicted, true
	}
	length := in.Push.Length()
	if length > netcode.MaxPush(a, in.Duration) {
		return PushTooLong, true
	}
	if length > netcode.PushAllowance(a, w.overlaps(t.id, moved), in.Duration) {
		return PushNoContact, true
	}
	return 0, false
}

// overlaps returns, for each other tank that a tank of id at p overlaps anywhere a client
// may take it to be (netcode.ReachDepth: a state the history holds from the rewind window,
// the ticks before this one, carried on at the motion of its tick before), the deepest
// such overlap: what a client's push may answer. The slice is the world's scratch, valid
// until the next call.
func (w *World) overlaps(id uint32, p netcode.Pose) []float64 {
	a := &w.cfg.Arena
	// A state further than this from p cannot reach it, however it is carried on.
	reach := 2*a.TankRadius + netcode.PushHorizon*2*netcode.MaxPush(a, netcode.StepInterval)
	w.pushScratch = w.pushScratch[:0]
	window := netcode.Ticks(w.cfg.Rules.RewindWindow)
	for back := uint32(1); back <= window+1 && back < w.tick; back++ {
		tick := w.tick - back
		slot := &w.hist.ring[tick%uint32(len(w.hist.ring))]
		if slot.tick != tick {
			continue
		}
		for _, u := range slot.tanks {
			if u.id == id || u.pose.X-p.X >= reach || p.X-u.pose.X >= reach || u.pose.Y-p.Y >= reach || p.Y-u.pose.Y >= reach {
				continue
			}
			prev, hasPrev := w.hist.find(tick-1, u.id)
			depth := netcode.ReachDepth(a, p, prev.pose, u.pose, hasPrev)
			if depth == 0 {
				continue
			}
			w.noteDepth(u.id, depth)
		}
	}
	w.depths = w.depths[:0]
	for _, d := range w.pushScratch {
		w.depths = append(w.depths, d.depth)
	}
	return w.depths
}

// noteDepth keeps depth as tank id's deepest overlap so far in overlaps' scratch.
func (w *World) noteDepth(id uint32, depth float64) {
	for i := range w.pushScratch {
		if w.pushScratch[i].id == id {
			w.pushScratch[i].depth = max(w.pushScratch[i].depth, depth)
			return
		}
	}
	w.pushScratch = append(w.pushScratch, tankDepth{id, depth})
}

// tankDepth is how deep a pushing tank overlaps one other tank.
type tankDepth struct {
	id    uint32
	depth float64
}
