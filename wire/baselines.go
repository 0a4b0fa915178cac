package wire

import (
	"cmp"
	"slices"

	"tanknet/netcode"
)

// The receiving half of delta snapshots. A chunk may describe tanks against a baseline: a
// snapshot the client acknowledged. The client keeps what every recent snapshot told it,
// tank by tank, so it can rebuild those tanks; a chunk whose baseline it no longer has (or
// never had) is usable for its whole states only, and the client must never acknowledge
// its tick, so the server does not build on it.

// BaselineWindow is how many ticks of received snapshots Baselines keeps: the server keeps
// 32 ticks of what it sent as possible baselines, and an acknowledgement takes a round trip
// on top, so twice that is never short.
const BaselineWindow = 64

// Baselines is a receiver's record of what recent snapshots said, tank by tank, by tick
// modulo BaselineWindow. Its zero value is empty and ready; it is not safe for concurrent
// use.
type Baselines [BaselineWindow]baseSnap

// baseSnap is what the chunks of one tick said, tank by tank.
type baseSnap struct {
	tick   uint32
	tanks  []Tank
	sorted bool
}

// Record notes what a chunk of tick said of tank t.
func (b *Baselines) Record(tick uint32, t Tank) {
	s := &b[tick%BaselineWindow]
	if s.tick != tick {
		s.tick, s.tanks, s.sorted = tick, s.tanks[:0], true
	}
	if n := len(s.tanks); n > 0 && s.tanks[n-1].ID >= t.ID {
		s.sorted = false // chunks arrived out of order
	}
	s.tanks = append(s.tanks, t)
}

// Find returns what the snapshot of tick said of tank id, if it is recorded.
func (b *Baselines) Find(tick, id uint32) (Tank, bool) {
	s := &b[tick%BaselineWindow]
	if tick == 0 || s.tick != tick {
		return Tank{}, false
	}
	if !s.sorted {
		slices.SortFunc(s.tanks, func(x, y Tank) int { return cmp.Compare(x.ID, y.ID) })
		s.tanks = slices.CompactFunc(s.tanks, func(x, y Tank) bool { return x.ID == y.ID })
		s.sorted = true
	}
	i, ok := slices.BinarySearchFunc(s.tanks, id, func(t Tank, id uint32) int { return cmp.Compare(t.ID, id) })
	if !ok {
		return Tank{}, false
	}
	return s.tanks[i], true
}

// Tanks calls use with every tank snap carries: first its whole ones, then the ones it
// describes against its baseline, rebuilt from b. It reports false when the delta part cannot
// be rebuilt whole: its baseline is gone, a tank is missing from it, or the moved list is
// malformed. Tanks rebuilt before the problem are used all the same. A rebuilt tank keeps
// the baseline's acknowledged move tick and input report: a delta carries neither (the
// server sends a client's own tank whole). use may Record into b.
func (b *Baselines) Tanks(snap *Snapshot, use func(t Tank)) bool {
	for _, t := range snap.Tanks {
		use(t)
	}
	return b.rebuild(snap, use)
}

// rebuild calls use with each tank snap describes against its baseline.
func (b *Baselines) rebuild(snap *Snapshot, use func(t Tank)) bool {
	tick, base := snap.Tick, snap.Baseline
	unchanged, moved := snap.Unchanged, snap.Moved
	if base == 0 {
		return len(unchanged) == 0 && len(moved) == 0
	}
	if base >= tick || len(moved)%4 != 0 {
		return false
	}
	ok := true
	id := uint32(0)
	for _, gap := range unchanged {
		id += gap
		t, found := b.Find(base, id)
		if !found {
			ok = false
			continue
		}
		use(t)
	}
	id = 0
	for i := 0; i < len(moved); i += 4 {
		id += uint32(moved[i])
		t, found := b.Find(base, id)
		x, y := int64(t.Grid.X)+int64(moved[i+1]), int64(t.Grid.Y)+int64(moved[i+2])
		h := int64(t.Grid.Heading) + int64(moved[i+3])
		if !found || x < 0 || y < 0 || x > 1<<32-1 || y > 1<<32-1 || h < -netcode.HeadingSteps/2 || h > netcode.HeadingSteps/2 {
			ok = false
			continue
		}
		t.Grid = netcode.GridPose{X: uint32(x), Y: uint32(y), Heading: int32(h)}
		use(t)
	}
	return ok
}
