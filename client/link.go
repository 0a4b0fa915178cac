package client

import (
	"time"

	"tanknet/netcode"
	"tanknet/wire"
)

// Link is what a Game talks to: where the server's messages come from, each with its local
// arrival time, and where the Game's inputs, shots and probes go. A live *Session is one;
// anything that can play the part drives the same Game without a network: a recording's
// feed, or a test's script (feed_test.go).
//
// A Game calls its Link from the one goroutine that calls Update; the Link's own
// goroutines, if any, are its business.
type Link interface {
	// Welcome is what the server said when the client joined.
	Welcome() wire.Welcome
	// Drain appends the messages received since the last call to dst, oldest first, and
	// returns it with the error that ended the link, if it has ended.
	Drain(dst []Received) ([]Received, error)
	// SendInput sends one prediction step (a MoveInput, on the stream).
	SendInput(p netcode.PendingInput) error
	// SendInputBatch repeats the unacknowledged inputs with a snapshot acknowledgement (an
	// InputBatch datagram; datagram lane only).
	SendInputBatch(inputs []netcode.PendingInput, ackTick, ackMask uint32) error
	// SendFire sends one shot.
	SendFire(req netcode.ShotRequest) error
	// SendInputMode asks for inputs on arrival or from the server's buffer.
	SendInputMode(onArrival bool) error
	// Ping sends a latency probe stamped t (microseconds).
	Ping(t uint64) error
	// SmoothedRTT is the transport's own round-trip estimate, 0 without one.
	SmoothedRTT() time.Duration
	// DatagramStats counts datagrams dropped as bad and for want of room.
	DatagramStats() (bad, dropped uint64)
}

var _ Link = (*Session)(nil)
