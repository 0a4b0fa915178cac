package client

import (
	"time"

	"tanknet/netcode"
	"tanknet/wire"
)

// uplink is what a Game sends on its Link: each prediction step's Move, on the datagram lane
// the InputBatch that repeats the inputs the server has not acknowledged, and the pings.
//
// The datagram lane, client side: every prediction step's input goes on the stream as the
// guarantee, and the unacknowledged ones (the 4 oldest and 10 newest when there are more than
// 14) are repeated in one InputBatch datagram a frame, so one lost packet costs the server no
// time (docs/PROTOCOL.md §1.4).
type uplink struct {
	link      Link
	datagrams bool                   // the Welcome's lane is the datagram lane, where InputBatches go
	recent    []netcode.PendingInput // the newest inputs sent, for InputBatch
	batch     []netcode.PendingInput // scratch: the inputs of the next InputBatch
	lastPing  time.Time
}

// pingEvery is how often a Game measures the round trip with Ping: often enough for a live
// graph, rare enough to be noise in the bandwidth.
const pingEvery = 500 * time.Millisecond

// redundantInputs is how many of the newest unacknowledged inputs every InputBatch repeats:
// 0.5 s at 20 Hz, longer than a burst of loss on every preset, short enough for one small
// datagram (about 25 bytes an input). The stream still carries each input once, so a longer
// burst only costs time, never an input.
const redundantInputs = 10

// oldestRepeated is how many of the oldest unacknowledged inputs every InputBatch also
// repeats when they are older than the newest redundantInputs. The server applies inputs in
// tick order, so one that every copy of was lost holds back all after it until the stream
// brings it; on a slow, lossy link (1 s, 25% loss) a stream retransmission can take longer
// than the server's input lead, and the inputs queued behind the gap would then be refused.
// Repeating the oldest ones until they are acknowledged fills such a gap with the next
// datagram that gets through. On a link whose round trip is under redundantInputs steps
// the newest ones already cover them, and nothing is added.
const oldestRepeated = 4

// move sends one prediction step and keeps it for the InputBatches.
func (u *uplink) move(p netcode.PendingInput) error {
	if err := u.link.Send(wire.Move(p)); err != nil {
		return err
	}
	u.remember(p)
	return nil
}

// remember keeps p among the newest redundantInputs inputs sent.
func (u *uplink) remember(p netcode.PendingInput) {
	if len(u.recent) == redundantInputs {
		u.recent = u.recent[:copy(u.recent, u.recent[1:])]
	}
	u.recent = append(u.recent, p)
}

// sendBatch sends the inputs the server has not acknowledged (its
// newest acknowledged move tick is lastAck; pending are our unacknowledged inputs) with the
// snapshot acknowledgement tick and mask, as one InputBatch datagram.
func (u *uplink) sendBatch(lastAck uint32, pending []netcode.PendingInput, tick, mask uint32) error {
	return u.link.Send(wire.InputBatch{Inputs: u.unacked(lastAck, pending), AckTick: tick, AckMask: mask})
}

// unacked returns the inputs to repeat in the next InputBatch, oldest first: the oldest
// oldestRepeated of pending that the server has not acknowledged, then the remembered newest
// ones it has not. The slice shares the uplink's memory.
func (u *uplink) unacked(lastAck uint32, pending []netcode.PendingInput) []netcode.PendingInput {
	i := 0
	for i < len(u.recent) && u.recent[i].Tick <= lastAck {
		i++
	}
	newest := u.recent[i:]
	if len(newest) == 0 {
		return newest
	}
	u.batch = u.batch[:0]
	for _, p := range pending {
		if len(u.batch) == oldestRepeated || p.Tick >= newest[0].Tick {
			break
		}
		if p.Tick > lastAck {
			u.batch = append(u.batch, p)
		}
	}
	if len(u.batch) == 0 {
		return newest
	}
	return append(u.batch, newest...)
}

// ping sends a Ping stamped at (now on netcode's timeline) when pingEvery has passed since
// the last.
func (u *uplink) ping(now time.Time, at time.Duration) error {
	if now.Sub(u.lastPing) < pingEvery {
		return nil
	}
	u.lastPing = now
	return u.link.Send(wire.Ping{ClientTimeUs: uint64(at / time.Microsecond)})
}
