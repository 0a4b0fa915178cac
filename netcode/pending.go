package netcode

import "time"

// PendingInput is one prediction step the client has simulated and sent but the server has
// not yet acknowledged: the MoveInput's tick, input, duration and contact push.
type PendingInput struct {
	Tick     uint32
	Input    Input
	Duration time.Duration
	Push     Push // applied after the movement (ApplyPush); zero unless contact is predicted
}

// Apply returns p after s: the input simulated for its duration, then its push. The server
// applies a MoveInput this way and clients predict and replay it this way.
func (s PendingInput) Apply(a *Arena, p Pose) Pose {
	return ApplyPush(a, Simulate(a, p, s.Input, s.Duration), s.Push)
}

// Pending is the ordered list of unacknowledged inputs. Inputs leave it only through Ack;
// replaying them never consumes them. The zero value is empty and ready to use.
type Pending struct {
	steps []PendingInput
}

// Add appends s. Ticks must increase: an s whose tick is not above the last one is ignored
// and Add returns false.
func (p *Pending) Add(s PendingInput) bool {
	if n := len(p.steps); n > 0 && s.Tick <= p.steps[n-1].Tick {
		return false
	}
	p.steps = append(p.steps, s)
	return true
}

// Ack removes every input whose tick is at or below tick and returns how many it removed.
// It reuses the backing array, so a steady stream of Add and Ack does not allocate.
func (p *Pending) Ack(tick uint32) int {
	n := 0
	for n < len(p.steps) && p.steps[n].Tick <= tick {
		n++
	}
	if n > 0 {
		p.steps = p.steps[:copy(p.steps, p.steps[n:])]
	}
	return n
}

// Steps returns the unacknowledged inputs in tick order. The slice is valid until the next
// Add or Ack; callers must not modify it.
func (p *Pending) Steps() []PendingInput { return p.steps }

// Len returns the number of unacknowledged inputs.
func (p *Pending) Len() int { return len(p.steps) }

// Last returns the newest pending input and true, or false when there is none.
func (p *Pending) Last() (PendingInput, bool) {
	if len(p.steps) == 0 {
		return PendingInput{}, false
	}
	return p.steps[len(p.steps)-1], true
}

// Replay simulates steps in order from base and returns the resulting pose, using Simulate
// for each step exactly as live prediction and the server do. It returns base when steps is
// empty and does not modify steps.
func Replay(a *Arena, base Pose, steps []PendingInput) Pose {
	for _, s := range steps {
		base = s.Apply(a, base)
	}
	return base
}
