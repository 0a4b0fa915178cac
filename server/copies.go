package server

import (
	"cmp"
	"slices"

	"tanknet/netcode"
)

// admitCopies queues, from p's datagram inputs, the ones that continue p's queue without a
// gap: each tick at most once (the first copy wins), in tick order, none skipped. A copy
// past a gap waits for the stream, which carries every input; a copy that breaks the rules
// is dropped and counted, never a reason to drop the player (the stream's copy decides).
func (w *world) admitCopies(p *player) {
	w.copies = p.peer.takeDatagramInputs(w.copies[:0])
	if len(w.copies) == 0 {
		return
	}
	slices.SortStableFunc(w.copies, func(a, b netcode.PendingInput) int { return cmp.Compare(a.Tick, b.Tick) })
	for _, in := range w.copies {
		switch {
		case in.Tick <= p.last:
			w.stats.redundantInputs.Add(1)
			continue
		case in.Tick != p.last+1:
			w.stats.gapInputs.Add(1)
			continue
		}
		in, v, _, _ := admit(in, p.last, p.ack, w.lead(), w.cfg)
		if v != admitted {
			w.stats.badDatagrams.Add(1)
			continue
		}
		p.queue = append(p.queue, in)
		p.last = in.Tick
		w.stats.earlyInputs.Add(1)
	}
}
