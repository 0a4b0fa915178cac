package client

import (
	"sync"
	"time"

	"tanknet/netcode"
)

// Clock is the game time a client runs on when it may run slower than the wall clock: the
// demo's slow motion sets the same rate on its server (server.Server.SetClockRate) and on
// every client's Clock, so the whole match plays at a quarter or an eighth of real time. A
// Game on a Clock is given Clock.At(now) in Update and its Link through Clock.Link, so
// arrival times are counted in the same game time. Safe for concurrent use.
type Clock struct {
	mu sync.Mutex
	c  netcode.RateClock
}

// NewClock returns a clock at rate 1 whose game time is wall time.
func NewClock(now time.Time) *Clock {
	return &Clock{c: netcode.NewRateClock(now)}
}

// At returns the game time at wall time t.
func (c *Clock) At(t time.Time) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.c.At(t)
}

// SetRate runs game time at rate times the wall clock's from now on (0 or less is ignored).
func (c *Clock) SetRate(now time.Time, rate float64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.c.SetRate(now, rate)
}

// Rate returns the rate in force.
func (c *Clock) Rate() float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.c.Rate()
}

// Link returns l with the arrival time of everything it receives turned into game time.
func (c *Clock) Link(l Link) Link { return &clockLink{Link: l, clock: c} }

// clockLink is a Link whose arrivals are stamped in a Clock's game time.
type clockLink struct {
	Link
	clock *Clock
}

// SmoothedRTT is the transport's estimate in game time: a link slowed with the game measures
// a wall round trip as many times longer. 0 when the link under it has no transport.
func (l *clockLink) SmoothedRTT() time.Duration {
	return time.Duration(float64(statsOf(l.Link).SmoothedRTT()) * l.clock.Rate())
}

// DatagramStats are the link's under it, 0 when it has no transport.
func (l *clockLink) DatagramStats() (bad, dropped uint64) { return statsOf(l.Link).DatagramStats() }

func (l *clockLink) Drain(dst []Received) ([]Received, error) {
	n := len(dst)
	dst, err := l.Link.Drain(dst)
	for i := n; i < len(dst); i++ {
		dst[i].At = l.clock.At(dst[i].At)
	}
	return dst, err
}
