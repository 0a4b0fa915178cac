package world

import (
	"cmp"
	"slices"

	"tanknet/netcode"
)

// QueueCopies puts in t's input buffer, from copies of MoveInputs that came in datagrams
// (InputBatch), the ones that continue the buffer without a gap: each tick at most once (the
// first copy wins), in tick order (it sorts ins), none skipped. A copy past a gap waits for
// the stream, which carries every input; a copy that breaks the rules is counted and
// skipped, never a reason to drop the player (the stream's copy decides). Give it a tick's
// stream inputs first (Queue), then its copies.
func (w *World) QueueCopies(t *Tank, ins ...netcode.PendingInput) {
	if len(ins) == 0 {
		return
	}
	slices.SortStableFunc(ins, func(a, b netcode.PendingInput) int { return cmp.Compare(a.Tick, b.Tick) })
	for _, in := range ins {
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
		t.last, t.away = in.Tick, false
		w.counts.Early++
	}
}
