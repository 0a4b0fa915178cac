package netcode

import "time"

// RateClock turns wall-clock time into game time that runs at a rate: 1 is real time, 0.25
// four times slower. The demo's slow motion runs the server, the clients and their links on
// such clocks. Game time stays continuous when the rate changes: it goes on from where it
// was at that wall time. The zero value is not usable; start with NewRateClock.
type RateClock struct {
	wall, game time.Time // the newest change: the game time it was at that wall time
	rate       float64
	before     float64 // the rate before the newest change, for wall times older than it
}

// NewRateClock returns a clock at rate 1 whose game time is wall time.
func NewRateClock(start time.Time) RateClock {
	return RateClock{wall: start, game: start, rate: 1, before: 1}
}

// At returns the game time at wall time t. A t before the newest change (an arrival stamped
// just before it) is counted at the rate before it.
func (c *RateClock) At(t time.Time) time.Time {
	d := t.Sub(c.wall)
	r := c.rate
	if d < 0 {
		r = c.before
	}
	return c.game.Add(time.Duration(float64(d) * r))
}

// SetRate changes the rate from wall time t on. rate must be positive.
func (c *RateClock) SetRate(t time.Time, rate float64) {
	if !(rate > 0) || rate == c.rate {
		return
	}
	c.game, c.wall = c.At(t), t
	c.before, c.rate = c.rate, rate
}

// Rate returns the rate in force.
func (c *RateClock) Rate() float64 { return c.rate }

// Wall returns how long a span of game time d lasts on the wall clock at the rate in force.
func (c *RateClock) Wall(d time.Duration) time.Duration {
	return time.Duration(float64(d) / c.rate)
}
