package server

import (
	"sync"
	"time"

	"tanknet/netcode"
)

// serverClock is the server's game time. It is wall time unless SetClockRate slows it: the
// demo's slow motion runs the whole server on it, so every room ticks once per 50 ms of
// game time and everything the world times (server time, input arrivals, the pace of
// simulation a client is owed) is counted in game time. Timeouts, rate limits and the
// heartbeat stay on the wall clock: they guard the process and the sockets, not the game.
type serverClock struct {
	mu    sync.Mutex
	clock netcode.RateClock
	start time.Time // game time at server time 0 (Serve)
}

func newServerClock(now time.Time) *serverClock {
	return &serverClock{clock: netcode.NewRateClock(now), start: now}
}

// begin makes now server time 0, keeping the rate set so far.
func (c *serverClock) begin(now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	rate := c.clock.Rate()
	c.clock = netcode.NewRateClock(now)
	c.clock.SetRate(now, rate)
	c.start = now
}

// now returns the game time now.
func (c *serverClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.clock.At(time.Now())
}

// since returns the server time now: game time since server time 0.
func (c *serverClock) since() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.clock.At(time.Now()).Sub(c.start)
}

// tickEvery is the wall time between two ticks at the rate in force.
func (c *serverClock) tickEvery() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.clock.Wall(tickInterval)
}

// SetClockRate runs the server's game time at rate times the wall clock's (1 real time,
// 0.25 four times slower; 0 or less is ignored): each room then ticks every 50 ms / rate of
// wall time. Clients must run their clocks at the same rate (the demo's slow motion does),
// or the server's pacing treats them as too fast or too slow. Safe to call at any time.
func (s *Server) SetClockRate(rate float64) {
	s.clock.mu.Lock()
	defer s.clock.mu.Unlock()
	s.clock.clock.SetRate(time.Now(), rate)
}

// ClockRate returns the rate SetClockRate set, 1 by default.
func (s *Server) ClockRate() float64 {
	s.clock.mu.Lock()
	defer s.clock.mu.Unlock()
	return s.clock.clock.Rate()
}
