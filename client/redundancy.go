package client

import (
	"time"

	"tanknet/netcode"
	"tanknet/wire"
)

// The datagram lane, client side: every prediction step's input goes on the stream as the
// guarantee, and the newest unacknowledged ones are repeated in one InputBatch datagram, so
// one lost packet costs the server no time (docs/PROTOCOL.md §1.4).

// redundantInputs is how many of the newest unacknowledged inputs every InputBatch repeats:
// 0.5 s at 20 Hz, longer than a burst of loss on every preset, short enough for one small
// datagram (about 25 bytes an input). The stream still carries each input once, so a longer
// burst only costs time, never an input.
const redundantInputs = 10

// remember keeps p among the newest redundantInputs inputs sent.
func (g *Game) remember(p netcode.PendingInput) {
	if len(g.recent) == redundantInputs {
		g.recent = g.recent[:copy(g.recent, g.recent[1:])]
	}
	g.recent = append(g.recent, p)
}

// sendBatch sends the remembered inputs the server has not acknowledged yet, with the
// snapshot acknowledgement, as one InputBatch datagram.
func (g *Game) sendBatch() error {
	tick, mask := g.arrivals.ack()
	return g.link.Send(wire.InputBatch{Inputs: g.unacked(), AckTick: tick, AckMask: mask})
}

// oldestRepeated is how many of the oldest unacknowledged inputs every InputBatch also
// repeats when they are older than the newest redundantInputs. The server applies inputs in
// tick order, so one that every copy of was lost holds back all after it until the stream
// brings it; on a slow, lossy link (1 s, 25% loss) a stream retransmission can take longer
// than the server's input lead, and the inputs queued behind the gap would then be refused.
// Repeating the oldest ones until they are acknowledged fills such a gap with the next
// datagram that gets through. On a link whose round trip is under redundantInputs steps
// the newest ones already cover them, and nothing is added.
const oldestRepeated = 4

// unacked returns the inputs to repeat in the next InputBatch, oldest first: the oldest
// oldestRepeated that the server has not acknowledged, then the remembered newest ones it
// has not. The slice shares the Game's memory.
func (g *Game) unacked() []netcode.PendingInput {
	i := 0
	for i < len(g.recent) && g.recent[i].Tick <= g.stats.LastAck {
		i++
	}
	newest := g.recent[i:]
	if g.local == nil || len(newest) == 0 {
		return newest
	}
	g.batch = g.batch[:0]
	for _, p := range g.local.Pending() {
		if len(g.batch) == oldestRepeated || p.Tick >= newest[0].Tick {
			break
		}
		if p.Tick > g.stats.LastAck {
			g.batch = append(g.batch, p)
		}
	}
	if len(g.batch) == 0 {
		return newest
	}
	return append(g.batch, newest...)
}

// HOLStallDurations returns the gap before each head-of-line stall detected so far (at
// most the first 4096). The slice belongs to the Game.
func (g *Game) HOLStallDurations() []time.Duration { return g.arrivals.stallLog }

// TickArrival says what came of one server tick's snapshot.
type TickArrival int

const (
	TickUnknown  TickArrival = iota // before the first snapshot, or too old to remember
	TickMissing                     // nothing of it came (yet)
	TickPartial                     // some of its chunks came
	TickComplete                    // all of it came
)

// SnapshotArrivals appends to dst what came of each of the n server ticks ending with the
// newest one received, oldest first, and returns it with that newest tick (0 before any).
func (g *Game) SnapshotArrivals(dst []TickArrival, n int) ([]TickArrival, uint32) {
	newest := g.arrivals.newest
	if newest == 0 {
		return dst, 0
	}
	for i := n - 1; i >= 0; i-- {
		if uint32(i) > newest {
			dst = append(dst, TickUnknown)
			continue
		}
		known, any, complete := g.arrivals.seen(newest - uint32(i))
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

// Input returns the input given to the last Update.
func (g *Game) Input() netcode.Input { return g.input }
