package client

import (
	"cmp"
	"slices"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
)

// Delta snapshots (datagram lane). A chunk may carry tanks against a baseline: a snapshot
// this client acknowledged. The client keeps what every recent snapshot told it, tank by
// tank, so it can rebuild those tanks; a chunk whose baseline it no longer has (or never
// had) is used for its whole states only, and its tick is never acknowledged, so the
// server does not build on it.

// baseWindow is how many ticks of received snapshots a client keeps as baselines: the
// server's deltaWindow (32) is the oldest it will use, and an acknowledgement takes a
// round trip on top, so twice that is never short.
const baseWindow = 64

// baseTank is what one snapshot said of one tank.
type baseTank struct {
	id     uint32
	grid   netcode.GridPose
	ack    uint32
	combat Combat
}

// baseSnap is what the chunks of one tick said, tank by tank.
type baseSnap struct {
	tick   uint32
	tanks  []baseTank
	sorted bool
}

// baselines is the client's record of recent snapshots, by tick modulo baseWindow.
type baselines [baseWindow]baseSnap

// record notes what a chunk of tick said of tank t.
func (b *baselines) record(tick uint32, t baseTank) {
	s := &b[tick%baseWindow]
	if s.tick != tick {
		s.tick, s.tanks, s.sorted = tick, s.tanks[:0], true
	}
	if n := len(s.tanks); n > 0 && s.tanks[n-1].id >= t.id {
		s.sorted = false // chunks arrived out of order
	}
	s.tanks = append(s.tanks, t)
}

// find returns what the snapshot of tick said of tank id.
func (b *baselines) find(tick, id uint32) (baseTank, bool) {
	s := &b[tick%baseWindow]
	if tick == 0 || s.tick != tick {
		return baseTank{}, false
	}
	if !s.sorted {
		slices.SortFunc(s.tanks, func(x, y baseTank) int { return cmp.Compare(x.id, y.id) })
		s.tanks = slices.CompactFunc(s.tanks, func(x, y baseTank) bool { return x.id == y.id })
		s.sorted = true
	}
	i, ok := slices.BinarySearchFunc(s.tanks, id, func(t baseTank, id uint32) int { return cmp.Compare(t.id, id) })
	if !ok {
		return baseTank{}, false
	}
	return s.tanks[i], true
}

// tankFromProto is what a whole PlayerState says of its tank.
func tankFromProto(ps *tankv1.PlayerState) baseTank {
	return baseTank{id: ps.GetPlayerId(), ack: ps.GetAcknowledgedMoveTick(), combat: combatFromProto(ps),
		grid: netcode.GridPose{X: ps.GetGridX(), Y: ps.GetGridY(), Heading: ps.GetGridHeading()}}
}

// fill overwrites ps with t as the state of tick.
func (t baseTank) fill(ps *tankv1.PlayerState, tick uint32) {
	*ps = tankv1.PlayerState{
		PlayerId: t.id, Tick: tick, AcknowledgedMoveTick: t.ack,
		GridX: t.grid.X, GridY: t.grid.Y, GridHeading: t.grid.Heading,
		Health: t.combat.Health, Destroyed: t.combat.Destroyed, Kills: t.combat.Kills,
		Deaths: t.combat.Deaths, SpawnProtected: t.combat.SpawnProtected,
	}
}

// deltaTanks rebuilds the tanks snap carries against its baseline and calls use with each
// as a whole PlayerState (valid only during the call). It reports false when the chunk
// cannot be rebuilt whole: its baseline is gone, a tank is missing from it, or the moved
// list is malformed. Tanks rebuilt before the problem are used all the same.
func (g *Game) deltaTanks(snap *tankv1.Snapshot, use func(ps *tankv1.PlayerState)) bool {
	tick, base := snap.GetServerTick(), snap.GetBaselineTick()
	unchanged, moved := snap.GetUnchanged(), snap.GetMoved()
	if base == 0 {
		return len(unchanged) == 0 && len(moved) == 0
	}
	if base >= tick || len(moved)%4 != 0 {
		return false
	}
	var ps tankv1.PlayerState
	ok := true
	id := uint32(0)
	for _, gap := range unchanged {
		id += gap
		t, found := g.bases.find(base, id)
		if !found {
			ok = false
			continue
		}
		t.fill(&ps, tick)
		use(&ps)
	}
	id = 0
	for i := 0; i < len(moved); i += 4 {
		id += uint32(moved[i])
		t, found := g.bases.find(base, id)
		x, y := int64(t.grid.X)+int64(moved[i+1]), int64(t.grid.Y)+int64(moved[i+2])
		h := int64(t.grid.Heading) + int64(moved[i+3])
		if !found || x < 0 || y < 0 || x > 1<<32-1 || y > 1<<32-1 || h < -netcode.HeadingSteps || h > netcode.HeadingSteps {
			ok = false
			continue
		}
		t.grid = netcode.GridPose{X: uint32(x), Y: uint32(y), Heading: int32(h)}
		t.fill(&ps, tick)
		use(&ps)
	}
	return ok
}
