package client

import (
	"time"

	"tanknet/wire"
)

// lanes is what arrives of the snapshots and how: which ticks and chunks came (arrivals.go),
// and on the datagram lane the recent tank states that delta chunks build on.
type lanes struct {
	arrivals arrivals
	bases    wire.Baselines
	deltas   bool // the datagram lane: the server sends deltas, and we acknowledge ticks
}

func newLanes(lane wire.Lane) lanes {
	l := lanes{deltas: lane == wire.LaneDatagram}
	l.arrivals.detectHOL = lane == wire.LaneReliable
	return l
}

// accept records that chunk snap arrived at local time at, and reports false for one
// already seen or too old to draw, which the caller drops.
func (l *lanes) accept(at time.Duration, snap *wire.Snapshot) bool {
	return l.arrivals.chunk(at, snap.Tick, snap.Index, snap.Count)
}

// tanks calls use with every tank of snap, whole or rebuilt from its delta, keeping each
// state as a baseline for later deltas. It reports false when a delta tank could not be
// rebuilt; its tick is then never acknowledged, for the server would build on states we lack.
func (l *lanes) tanks(snap *wire.Snapshot, use func(wire.Tank)) bool {
	ok := l.bases.Tanks(snap, func(t wire.Tank) {
		if l.deltas {
			l.bases.Record(snap.Tick, t)
		}
		use(t)
	})
	if !ok {
		l.arrivals.spoil(snap.Tick)
	}
	return ok
}

// ack returns the snapshot acknowledgement an InputBatch carries (arrivals.ack).
func (l *lanes) ack() (tick, mask uint32) { return l.arrivals.ack() }

// TickArrival says what came of one server tick's snapshot.
type TickArrival int

const (
	TickUnknown  TickArrival = iota // before the first snapshot, or too old to remember
	TickMissing                     // nothing of it came (yet)
	TickPartial                     // some of its chunks came
	TickComplete                    // all of it came
)

// history appends to dst what came of each of the n server ticks ending with the newest one
// received, oldest first, and returns it with that newest tick (0 before any).
func (l *lanes) history(dst []TickArrival, n int) ([]TickArrival, uint32) {
	newest := l.arrivals.newest
	if newest == 0 {
		return dst, 0
	}
	for i := n - 1; i >= 0; i-- {
		if uint32(i) > newest {
			dst = append(dst, TickUnknown)
			continue
		}
		known, any, complete := l.arrivals.seen(newest - uint32(i))
		switch {
		case !known:
			dst = append(dst, TickUnknown)
		case complete:
			dst = append(dst, TickComplete)
		case any:
			dst = append(dst, TickPartial)
		default:
			dst = append(dst, TickMissing)
		}
	}
	return dst, newest
}

// HOLStallDurations returns the gap before each head-of-line stall detected so far (at
// most the first 4096). The slice belongs to the Game.
func (g *Game) HOLStallDurations() []time.Duration { return g.lanes.arrivals.stallLog }

// SnapshotArrivals appends to dst what came of each of the n server ticks ending with the
// newest one received, oldest first, and returns it with that newest tick (0 before any).
func (g *Game) SnapshotArrivals(dst []TickArrival, n int) ([]TickArrival, uint32) {
	return g.lanes.history(dst, n)
}
