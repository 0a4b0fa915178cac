package client

import (
	"math/bits"
	"time"

	"tanknet/netcode"
	"tanknet/wire"
)

// arrivalWindow is how many recent server ticks arrivals remembers, per tick which chunks
// came: 3.2 s at 20 Hz. A chunk older than that is too late to draw and counts as lost.
const arrivalWindow = 64

// HOL-stall detection on the reliable lane: a gap in snapshot arrivals longer than holGap,
// ended by at least holBurst snapshots within holBurstWindow of each other. That is the
// signature of KCP's ordered stream holding every snapshot behind one lost packet and then
// releasing them at once; plain jitter spreads arrivals out instead of stacking them.
const (
	holGap         = 3 * netcode.StepInterval / 2 // 1.5 ticks: longer than any on-time spacing plus modest jitter
	holBurst       = 3                            // "several ticks' worth": one late snapshot is jitter, three at once is a queue released
	holBurstWindow = 10 * time.Millisecond        // a released queue is read back to back, well within this
	maxStallLog    = 4096                         // stall durations kept for quantiles: 200 s of one stall a tick
)

// arrivals follows which snapshots (ticks, and chunks within them) came: it counts lost
// snapshots, builds the snapshot acknowledgement a client sends, and on the reliable lane
// detects head-of-line stalls. It lives on the Game's goroutine.
type arrivals struct {
	slots    [arrivalWindow]tickSlot
	first    uint32 // first tick seen; 0 before any
	newest   uint32
	distinct int // ticks of which at least one chunk came, counted once

	detectHOL  bool
	lastAt     time.Duration // previous snapshot arrival (local time)
	burstStart time.Duration
	burstGap   time.Duration
	burstN     int // arrivals in the current burst after a gap, 0 when none is open
	stalls     int
	stallLog   []time.Duration
}

// tickSlot is what came of one tick: a bit per chunk index and the chunk count.
type tickSlot struct {
	tick    uint32
	got     uint64
	count   uint32
	spoiled bool // a chunk could not be used whole: never acknowledge this tick
}

// chunk records that chunk index of count (count 0: a whole snapshot on the stream) of
// tick arrived at local time at. It reports false for a chunk it has already seen or that is
// too old to matter, which the caller drops.
func (a *arrivals) chunk(at time.Duration, tick, index, count uint32) bool {
	if count == 0 {
		count = 1
	}
	if a.first == 0 {
		a.first, a.newest = tick, tick
	}
	if tick+arrivalWindow <= a.newest {
		return false // too old to matter
	}
	s := &a.slots[tick%arrivalWindow]
	if s.tick != tick {
		*s = tickSlot{tick: tick, count: count}
		a.distinct++
	}
	bit := uint64(1) << (index % 64)
	if s.got&bit != 0 {
		return false
	}
	s.got |= bit
	if tick > a.newest {
		a.newest = tick
	}
	if index == 0 || count == 1 {
		a.arrive(at)
	}
	return true
}

// arrive feeds one snapshot arrival to the HOL-stall detector.
func (a *arrivals) arrive(at time.Duration) {
	if !a.detectHOL {
		return
	}
	gap := at - a.lastAt
	a.lastAt = at
	switch {
	case gap > holGap:
		a.burstStart, a.burstGap, a.burstN = at, gap, 1
	case a.burstN > 0 && at-a.burstStart <= holBurstWindow:
		a.burstN++
		if a.burstN == holBurst {
			a.stalls++
			if len(a.stallLog) < maxStallLog {
				a.stallLog = append(a.stallLog, a.burstGap)
			}
		}
	default:
		a.burstN = 0
	}
}

// lossSettle is how many ticks a missing snapshot may still come late before lost counts
// it: 0.5 s, beyond any reordering a preset does.
const lossSettle = 10

// lost returns how many ticks since the first one seen came with no chunk at all, not
// counting the newest lossSettle ticks, which may still come.
func (a *arrivals) lost() int {
	if a.first == 0 || a.newest < a.first+lossSettle {
		return 0
	}
	missing := int(a.newest-a.first+1) - a.distinct
	// Ticks of the last lossSettle that have not come yet are not lost yet.
	for t := a.newest - lossSettle + 1; t <= a.newest; t++ {
		if a.slots[t%arrivalWindow].tick != t {
			missing--
		}
	}
	return max(0, missing)
}

// spoil marks tick, whose chunk has just been recorded, as never to be acknowledged.
func (a *arrivals) spoil(tick uint32) {
	if s := &a.slots[tick%arrivalWindow]; s.tick == tick {
		s.spoiled = true
	}
}

// ack returns the snapshot acknowledgement: the newest tick of which every chunk came, and
// a mask whose bit i says the same of the tick i+1 before it.
func (a *arrivals) ack() (tick, mask uint32) {
	return wire.SnapshotAck(a.newest, arrivalWindow, func(t uint32) bool {
		s := a.slots[t%arrivalWindow]
		return s.tick == t && bits.OnesCount64(s.got) >= int(s.count) && !s.spoiled
	})
}

// seen reports whether tick is known (at or after the first tick seen and within the
// window), and if so whether any and all of its chunks came.
func (a *arrivals) seen(tick uint32) (known, any, complete bool) {
	if a.first == 0 || tick < a.first || tick > a.newest || tick+arrivalWindow <= a.newest {
		return false, false, false
	}
	s := a.slots[tick%arrivalWindow]
	if s.tick != tick {
		return true, false, false
	}
	return true, true, bits.OnesCount64(s.got) >= int(s.count)
}
