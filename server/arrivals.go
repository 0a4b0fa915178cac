package server

import (
	"time"

	"tanknet/netcode"
)

// When each of a player's inputs reached the server, for the input buffer's report
// (InputReport.Wait) and tanksim's input_wait_ms. An input comes on the stream and, on the
// datagram lane, in several InputBatch copies; the first copy to arrive sets the time.

// arrivalSlots is how many recent move ticks a session remembers arrival times for: 256
// ticks (12.8 s) of inputs, far more than the buffer ever holds.
const arrivalSlots = 256

// an arrival is when one move tick first reached the session, as server time (since Serve
// started).
type arrivalTime struct {
	tick uint32
	at   time.Duration
}

// inputArrivals is a ring of arrival times indexed by move tick. Not safe for concurrent use: the
// session guards it with inMu.
type inputArrivals [arrivalSlots]arrivalTime

// note records that tick arrived at at, unless a copy of it arrived before.
func (a *inputArrivals) note(tick uint32, at time.Duration) {
	slot := &a[tick%arrivalSlots]
	if slot.tick != tick {
		*slot = arrivalTime{tick, at}
	}
}

// noteAll records the arrival of every input in ins at at.
func (a *inputArrivals) noteAll(ins []netcode.PendingInput, at time.Duration) {
	for _, in := range ins {
		a.note(in.Tick, at)
	}
}

// at returns when tick arrived, if it is still remembered.
func (a *inputArrivals) at(tick uint32) (time.Duration, bool) {
	slot := a[tick%arrivalSlots]
	return slot.at, slot.tick == tick && tick != 0
}
