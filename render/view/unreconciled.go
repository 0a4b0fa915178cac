package view

import (
	"tanknet/netcode"
)

// Unreconciled is the local tank as a client without reconciliation would show it: every
// server state resets it to the server's pose, and only the steps predicted after that are
// applied on top. The inputs the server has not applied yet are lost, so the tank snaps back
// by a round trip of movement on every snapshot. It shadows a netcode.Local, which keeps
// reconciling properly, so switching reconciliation back on is seamless.
//
// The zero value is ready for a Local that has not stepped yet; call Observe after every
// client.Game.Update from the one that creates the Local on. An Unreconciled is not safe for
// concurrent use.
type Unreconciled struct {
	started   bool
	baseTick  uint32
	steps     int // l.Counters().Steps at the last Observe
	prev, cur netcode.Pose
}

// Observe catches up with l after one frame in which every new prediction step was driven
// by in: a newer baseline restarts the shadow from the server's pose, then each new step
// moves it exactly as netcode.Local.Predict would.
func (u *Unreconciled) Observe(a *netcode.Arena, l *netcode.Local, in netcode.Input) {
	c := l.Counters()
	b := l.Baseline()
	if !u.started || b.Tick != u.baseTick {
		u.started, u.baseTick = true, b.Tick
		u.prev, u.cur = b.Pose, b.Pose
	}
	in = in.Clamp()
	for ; u.steps < c.Steps; u.steps++ {
		u.prev = u.cur
		u.cur = netcode.Simulate(a, u.cur, in, netcode.StepInterval)
	}
}

// Pose returns the shadow pose interpolated between its last two steps by alpha, the render
// alpha of the Local it shadows.
func (u *Unreconciled) Pose(alpha float64) netcode.Pose {
	return netcode.Lerp(u.prev, u.cur, alpha)
}
