package world

import (
	"cmp"
	"slices"

	"tanknet/netcode"
)

// admitCopies queues, from t's datagram inputs, the ones that continue t's queue without a
// gap: each tick at most once (the first copy wins), in tick order, none skipped. A copy
// past a gap waits for the stream, which carries every input; a copy that breaks the rules
// is dropped and counted, never a reason to drop the player (the stream's copy decides).
func (w *World) admitCopies(t *Tank) {
	if len(t.copies) == 0 {
		return
	}
	copies := t.copies
	t.copies = t.copies[:0]
	slices.SortStableFunc(copies, func(a, b netcode.PendingInput) int { return cmp.Compare(a.Tick, b.Tick) })
	for _, in := range copies {
		switch {
		case in.Tick <= t.last:
			w.counts.Redundant++
			continue
		case in.Tick != t.last+1:
			w.counts.Gaps++
			continue
		}
		in, v, _, _ := admit(in, t.last, t.ack, w.inputLead(), &w.cfg)
		if v != admitted {
			w.counts.BadCopies++
			continue
		}
		t.queue = append(t.queue, in)
		t.last = in.Tick
		w.counts.Early++
	}
}
