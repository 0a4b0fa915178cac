package server

import (
	"math"
	"sync/atomic"
	"time"
)

// The input buffer in production: each room counts, for every player-tick (one tick of one
// player that has had an input applied before, and has not left), whether it starved (no
// input waiting: the tank stood for lack of input), whether it was doubled (more than one
// input applied: the tank moved two steps' worth or more in one tick), how long each applied
// input waited in the buffer, and how many inputs were still waiting after the tick. A
// healthy buffer starves and doubles in under 1% of player-ticks.

// InputBufferStats are one room's input buffer figures since it opened, read from its
// bufferStats. server/metrics exports them with the room's name as label "room".
type InputBufferStats struct {
	PlayerTicks uint64    // player-ticks: ticks of players that have had an input applied and have not left
	Starved     uint64    // player-ticks that applied no input because none was waiting
	Doubled     uint64    // player-ticks that applied more than one input
	Wait        Histogram // how long each applied input waited, in seconds
	Depth       Histogram // inputs still waiting in a player's buffer after each player-tick
}

// Histogram is a distribution: Counts[i] is how many observations were at most
// UpperBounds[i] and more than UpperBounds[i-1] (not cumulative); Count also counts those
// above the last bound, and Sum adds them all.
type Histogram struct {
	UpperBounds []float64
	Counts      []uint64
	Count       uint64
	Sum         float64
}

// waitBuckets are the upper bounds of the input wait histogram, in seconds: the few
// milliseconds a dilated clock aims at, up to the 400 ms a full buffer holds.
var waitBuckets = []float64{0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.4, 1}

// depthBuckets are the upper bounds of the buffer depth histogram, in inputs: one by one up
// to the maxBuffered the buffer keeps, then the backlogs it drains faster.
var depthBuckets = []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 16, 64}

// bufferStats is the live form of InputBufferStats: the room's world writes it, anyone
// reads it (snapshot).
type bufferStats struct {
	playerTicks, starved, doubled atomic.Uint64
	wait, depth                   liveHistogram
}

func newBufferStats() *bufferStats {
	return &bufferStats{wait: newLiveHistogram(waitBuckets), depth: newLiveHistogram(depthBuckets)}
}

// PlayerTick counts one player-tick that applied applied inputs and left waiting in the buffer;
// starved says none was waiting.
func (b *bufferStats) PlayerTick(starved bool, applied, waiting int) {
	b.playerTicks.Add(1)
	if starved {
		b.starved.Add(1)
	}
	if applied > 1 {
		b.doubled.Add(1)
	}
	b.depth.observe(float64(waiting))
}

// InputWait counts the wait of one applied input.
func (b *bufferStats) InputWait(d time.Duration) { b.wait.observe(d.Seconds()) }

// snapshot reads the live figures into InputBufferStats.
func (b *bufferStats) snapshot() InputBufferStats {
	return InputBufferStats{
		PlayerTicks: b.playerTicks.Load(),
		Starved:     b.starved.Load(),
		Doubled:     b.doubled.Load(),
		Wait:        b.wait.snapshot(),
		Depth:       b.depth.snapshot(),
	}
}

// liveHistogram is a Histogram one goroutine observes into while others read it.
type liveHistogram struct {
	bounds  []float64
	counts  []atomic.Uint64 // one per bound, then one for larger values
	sumBits atomic.Uint64   // the sum's float64 bits; one writer, so no lost update
}

func newLiveHistogram(bounds []float64) liveHistogram {
	return liveHistogram{bounds: bounds, counts: make([]atomic.Uint64, len(bounds)+1)}
}

func (h *liveHistogram) observe(v float64) {
	i := 0
	for i < len(h.bounds) && v > h.bounds[i] {
		i++
	}
	h.counts[i].Add(1)
	h.sumBits.Store(math.Float64bits(math.Float64frombits(h.sumBits.Load()) + v))
}

func (h *liveHistogram) snapshot() Histogram {
	s := Histogram{UpperBounds: h.bounds, Counts: make([]uint64, len(h.bounds)), Sum: math.Float64frombits(h.sumBits.Load())}
	for i := range h.counts {
		n := h.counts[i].Load()
		if i < len(s.Counts) {
			s.Counts[i] = n
		}
		s.Count += n
	}
	return s
}
