package world

import (
	"cmp"
	"slices"
)

// admitCopies queues, from t's datagram inputs, the ones that continue t's queue without a
// gap: each tick at most once (the first copy wins), in tick order, none skipped. A copy
// past a gap waits for the stream, which carries every input; a copy that breaks the rules
// is dropped and counted, never a reason to drop the player (the stream's copy decides).
func (w *World) admitCopies(t *Tank) {
	if len(t.copies) == 0 {
		return
	}
	defer func() { t.copies = t.copies[:0] }()
	slices.SortStableFunc(t.copies, func(a, b queued) int { return cmp.Compare(a.Tick, b.Tick) })
	for _, q := range t.copies {
		in := q.PendingInput
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
		t.queue = append(t.queue, queued{in, q.arrived})
		t.last = in.Tick
		w.counts.Early++
	}
}
