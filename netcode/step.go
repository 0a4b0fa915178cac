package netcode

import "time"

// StepInterval is the server's tick and the client's prediction step: 20 steps per second.
// Every duration is simulated in substeps of this length (see Simulate).
const StepInterval = 50 * time.Millisecond

// Step advances a tank at pose p under input in for dt and returns the new pose. Heading
// changes first, so the new heading steers this step's movement and the next step starts
// from it. Walls and obstacles are part of the step; other tanks are not (the server resolves
// tank contact separately with ResolveContacts). Input is clamped to [-1, 1]. The new
// heading and position are snapped to the wire grid (see GridUnit), so what Step returns is
// exactly what the wire can carry.
//
// Step is deterministic: the same arguments give bit-identical results everywhere.
func Step(a *Arena, p Pose, in Input, dt time.Duration) Pose {
	in = in.Clamp()
	s := dt.Seconds()
	heading := SnapHeading(p.Heading + float64(float64(in.Turn*a.TurnRate)*s))
	dist := float64(in.Throttle*a.Speed) * s
	sin, cos := sincos(heading)
	x := p.X + float64(cos*dist)
	y := p.Y + float64(sin*dist)
	x, y = a.Contain(x, y)
	return a.Snap(Pose{X: x, Y: y, Heading: heading})
}

// Simulate applies in to p for d, in whole StepInterval substeps followed by one remainder
// substep when d is not a multiple: 120 ms runs as 50 + 50 + 20 ms. The server applies every
// MoveInput this way and clients predict and replay this way, which is what makes replay
// reproduce the server. A non-positive d returns p unchanged.
func Simulate(a *Arena, p Pose, in Input, d time.Duration) Pose {
	for ; d >= StepInterval; d -= StepInterval {
		p = Step(a, p, in, StepInterval)
	}
	if d > 0 {
		p = Step(a, p, in, d)
	}
	return p
}

// Substeps returns how many Step calls Simulate makes for d.
func Substeps(d time.Duration) int {
	if d <= 0 {
		return 0
	}
	n := int(d / StepInterval)
	if d%StepInterval != 0 {
		n++
	}
	return n
}
