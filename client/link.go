package client

import (
	"time"

	"tanknet/wire"
)

// Link is what a Game talks to: what the server said on joining, the server's messages as
// they arrive, each with its local arrival time, and where the Game's own messages go. A live
// *Session is one; anything that can play the part drives the same Game without a network: a
// recording's feed (replay.go), the server's lockstep test, or a test's script (feed_test.go).
// A Link that has nothing to do with a message it is sent returns nil.
//
// A Game calls its Link from whichever goroutine calls Update, one at a time; the Link's
// own goroutines, if any, are its business.
type Link interface {
	// Welcome is what the server said when the client joined.
	Welcome() wire.Welcome
	// Drain appends the messages received since the last call to dst, oldest first, and
	// returns it with the error that ended the link, if it has ended.
	Drain(dst []Received) ([]Received, error)
	// Send sends one of the Game's messages; an error ends the Game's session.
	Send(m wire.GameMessage) error
}

// transportStats is what a live link can tell of the transport under it. A Session has it,
// and so has a Clock's link over one; a recording or a script has not, and reads as zero.
type transportStats interface {
	// SmoothedRTT is the transport's own round-trip estimate, 0 without one.
	SmoothedRTT() time.Duration
	// DatagramStats counts datagrams dropped as bad and for want of room.
	DatagramStats() (bad, dropped uint64)
}

// statsOf returns l's transport figures, or zeros when it has no transport under it.
func statsOf(l Link) transportStats {
	if t, ok := l.(transportStats); ok {
		return t
	}
	return noTransport{}
}

// noTransport is the figures of a link without a transport: all zero.
type noTransport struct{}

func (noTransport) SmoothedRTT() time.Duration           { return 0 }
func (noTransport) DatagramStats() (bad, dropped uint64) { return 0, 0 }

var (
	_ Link           = (*Session)(nil)
	_ Arrivals       = (*Session)(nil)
	_ Arrivals       = (*clockLink)(nil)
	_ transportStats = (*Session)(nil)
	_ transportStats = (*clockLink)(nil)
)
