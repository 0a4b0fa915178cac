package world

import (
	"cmp"
	"slices"
	"time"

	"tanknet/netcode"
)

// tankAt is one tank as a snapshot showed it.
type tankAt struct {
	id        uint32
	pose      netcode.Pose
	destroyed bool
}

// tickAt is every tank after one server tick, in increasing id order: exactly what that
// tick's snapshot carried.
type tickAt struct {
	tick  uint32
	tanks []tankAt
}

// history keeps the last len(ring) ticks the server sent, for lag compensation. Each slot is
// reused, so recording allocates only while the number of players grows.
type history struct {
	ring []tickAt
}

// newHistory returns a history that remembers ticks ticks.
func newHistory(ticks int) *history {
	return &history{ring: make([]tickAt, max(ticks, 1))}
}

// record stores the tanks of tick, overwriting the slot of the tick len(ring) earlier.
func (h *history) record(tick uint32, tanks []*Tank) {
	slot := &h.ring[tick%uint32(len(h.ring))]
	slot.tick = tick
	slot.tanks = slot.tanks[:0]
	for _, t := range tanks {
		slot.tanks = append(slot.tanks, tankAt{id: t.id, pose: t.pose, destroyed: t.destroyed})
	}
}

// find returns tank id as tick's snapshot showed it, and false when the tick is no longer
// (or not yet) remembered or the tank was not in it.
func (h *history) find(tick, id uint32) (tankAt, bool) {
	slot := &h.ring[tick%uint32(len(h.ring))]
	if slot.tick != tick || tick == 0 {
		return tankAt{}, false
	}
	i, ok := slices.BinarySearchFunc(slot.tanks, id, func(t tankAt, id uint32) int { return cmp.Compare(t.id, id) })
	if !ok {
		return tankAt{}, false
	}
	return slot.tanks[i], true
}

// rewound returns the pose tank id was drawn at in view v: DrawnPose of its states at
// v.From and v.To, the very function the client drew it with. It returns false when either
// state is not remembered or shows the tank destroyed: a tank must be alive in both states
// it was drawn between to be a target.
func (h *history) rewound(id uint32, v netcode.View) (netcode.Pose, bool) {
	from, ok := h.find(v.From, id)
	if !ok || from.destroyed {
		return netcode.Pose{}, false
	}
	to, ok := h.find(v.To, id)
	if !ok || to.destroyed {
		return netcode.Pose{}, false
	}
	return netcode.DrawnPose(from.pose, to.pose, v), true
}

// movePose is the shooter's pose after one applied move tick, and its game time then: the
// simulated time it had been granted, which the shot cooldown is counted in.
type movePose struct {
	tick    uint32
	pose    netcode.Pose
	granted time.Duration
}

// moveHistory is how many applied move ticks each player's pose is remembered for: 1.6 s at
// 20 Hz, far more than the one or two ticks between a MoveInput and the Fire behind it.
const moveHistory = 32

// recordMove remembers t's pose after applying move tick.
func (t *Tank) recordMove(tick uint32) {
	t.moves[tick%moveHistory] = movePose{tick: tick, pose: t.pose, granted: t.granted}
}

// moveAt returns t's pose and game time after move tick, and false when it is no longer
// remembered.
func (t *Tank) moveAt(tick uint32) (movePose, bool) {
	m := t.moves[tick%moveHistory]
	return m, m.tick == tick && tick != 0
}
