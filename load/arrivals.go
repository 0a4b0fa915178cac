package load

import (
	"math/bits"

	"tanknet/wire"
)

// arrivalSlots is how many recent ticks a thin client remembers chunks of: the 32 ticks
// an acknowledgement mask covers, and as many again for chunks that come late.
const arrivalSlots = 64

// arrivals is which chunks of the recent snapshots came, enough to acknowledge the
// complete ones (PROTOCOL.md §1.7) and to count the ticks none came of.
type arrivals struct {
	slots    [arrivalSlots]arrivalSlot
	first    uint32 // the first tick seen; 0 before any
	newest   uint32
	complete uint64 // ticks whose every chunk came and rebuilt
}

type arrivalSlot struct {
	tick    uint32
	got     uint64 // chunk indexes that came
	count   uint32 // the tick's chunk count
	done    bool   // counted in complete
	spoiled bool   // a delta could not be rebuilt: never acknowledged
}

// chunk notes chunk index of count of tick, and reports false for a duplicate or one too
// old to remember.
func (a *arrivals) chunk(tick, index, count uint32) bool {
	if tick == 0 || tick+arrivalSlots <= a.newest || index >= 64 {
		return false
	}
	if a.first == 0 {
		a.first = tick
	}
	a.newest = max(a.newest, tick)
	s := &a.slots[tick%arrivalSlots]
	if s.tick != tick {
		*s = arrivalSlot{tick: tick, count: count}
	}
	if s.got&(1<<index) != 0 {
		return false
	}
	s.got |= 1 << index
	return true
}

// settle counts tick complete once every chunk of it came; spoil marks it unusable.
func (a *arrivals) settle(tick uint32, spoiled bool) {
	s := &a.slots[tick%arrivalSlots]
	if s.tick != tick {
		return
	}
	s.spoiled = s.spoiled || spoiled
	if !s.done && !s.spoiled && bits.OnesCount64(s.got) >= int(s.count) {
		s.done = true
		a.complete++
	}
}

// rebuildable reports whether a full client could rebuild every tank of chunk h from its
// baselines (wire.Baselines.Tanks), judged from what came rather than kept: a chunk
// without delta part always, else one whose baseline is before it, whose moved list is in
// fours and, when it lists tanks, whose baseline tick is still remembered and came whole
// and usable. A thin client keeps no tanks, so it trusts that a delta names only tanks its
// baseline held, which a server never breaks: it describes tanks only against a tick the
// client acknowledged, and the client acknowledges only ticks that came whole.
func (a *arrivals) rebuildable(h *wire.ChunkHead) bool {
	switch {
	case h.Baseline == 0:
		return h.Unchanged == 0 && h.Moved == 0
	case h.Baseline >= h.Tick || h.Moved%4 != 0:
		return false
	case h.Unchanged == 0 && h.Moved == 0:
		return true
	}
	s := &a.slots[h.Baseline%arrivalSlots]
	return s.tick == h.Baseline && s.done
}

// ack returns the newest complete tick and the mask of the 32 before it that are complete
// too, as an InputBatch carries them.
func (a *arrivals) ack() (tick, mask uint32) {
	return wire.SnapshotAck(a.newest, arrivalSlots, func(t uint32) bool {
		s := &a.slots[t%arrivalSlots]
		return s.tick == t && s.done
	})
}

// missing returns how many ticks from the first seen to the newest were not complete.
func (a *arrivals) missing() uint64 {
	if a.first == 0 {
		return 0
	}
	return uint64(a.newest-a.first+1) - a.complete
}
