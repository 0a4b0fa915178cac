package netcode

import "time"

// Clock is a fixed-timestep accumulator: it is fed the length of each rendered frame and
// says how many fixed steps have become due. What is left over, as a fraction of a step, is
// the render alpha used to draw between the last two steps.
//
// After a long stall (a debugger, a window drag) a clock never asks for more than its
// catch-up cap in one Advance; the rest of the backlog is dropped and counted instead of
// making the game spiral into ever longer frames.
//
// The zero value is not usable; make a Clock with NewClock.
type Clock struct {
	step     time.Duration
	maxSteps int
	acc      time.Duration
	dropped  int
}

// NewClock returns a clock of fixed steps of length step (StepInterval if step is not
// positive) that runs at most maxSteps steps per Advance (at least 1).
func NewClock(step time.Duration, maxSteps int) *Clock {
	if step <= 0 {
		step = StepInterval
	}
	return &Clock{step: step, maxSteps: max(1, maxSteps)}
}

// Advance adds a frame of length frame and returns how many steps are due now, at most the
// catch-up cap. A negative frame counts as zero.
func (c *Clock) Advance(frame time.Duration) int {
	c.acc += max(0, frame)
	n := int(c.acc / c.step)
	if n > c.maxSteps {
		c.dropped += n - c.maxSteps
		n = c.maxSteps
		c.acc %= c.step // forget the backlog, keep the phase
	} else {
		c.acc -= time.Duration(n) * c.step
	}
	return n
}

// Alpha returns how far the clock is between the last due step and the next one, in [0, 1).
func (c *Clock) Alpha() float64 {
	return float64(c.acc) / float64(c.step)
}

// Elapsed returns how much of the next step has already passed: Alpha as a duration.
func (c *Clock) Elapsed() time.Duration { return c.acc }

// Dropped returns how many due steps the catch-up cap has discarded so far.
func (c *Clock) Dropped() int { return c.dropped }
