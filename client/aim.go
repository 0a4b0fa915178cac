package client

import (
	"math"

	"tanknet/netcode"
)

// Aim is what a bot's gunner decides from what its Game drew this frame.
type Aim struct {
	TargetID uint32  // the nearest live tank drawn; 0 when there is none
	Turn     float64 // steering in [-1, 1] that turns toward it within one step
	Aligned  bool    // a shot fired now would hit a tank, as we drew them
}

// Aim picks the nearest live remote tank drawn and returns the steering that points our
// predicted tank at it, and whether a shot now would hit any tank (in range, not behind an
// obstacle). It is the bots' gunner; the zero Aim means nothing to aim at.
func (g *Game) Aim() Aim {
	if g.local == nil || g.own.Destroyed {
		return Aim{}
	}
	self := g.local.Predicted()
	var best *Remote
	bestD := math.Inf(1)
	g.targets = g.targets[:0]
	for _, rm := range g.remotes {
		if !rm.target() {
			continue
		}
		g.targets = append(g.targets, netcode.Target{ID: rm.ID, Pose: rm.Pose})
		if d := self.Distance(rm.Pose); d < bestD || (d == bestD && best != nil && rm.ID < best.ID) {
			best, bestD = rm, d
		}
	}
	if best == nil {
		return Aim{}
	}
	return g.aimAt(self, best, false)
}

// AimAt returns the steering that points our predicted tank at the remote tank id as drawn,
// and whether a shot now would hit that tank (not another in the way); the zero Aim when it
// is not drawn as a live target. The guided tour's scripted gunner aims with it.
func (g *Game) AimAt(id uint32) Aim {
	rm := g.remotes[id]
	if g.local == nil || g.own.Destroyed || rm == nil || !rm.target() {
		return Aim{}
	}
	g.targets = g.targets[:0]
	for _, o := range g.remotes {
		if o.target() {
			g.targets = append(g.targets, netcode.Target{ID: o.ID, Pose: o.Pose})
		}
	}
	return g.aimAt(g.local.Predicted(), rm, true)
}

// aimAt steers self toward best; Aligned says a shot on g.targets would hit a tank (only
// best, when only is set).
func (g *Game) aimAt(self netcode.Pose, best *Remote, only bool) Aim {
	want := math.Atan2(best.Pose.Y-self.Y, best.Pose.X-self.X)
	perStep := g.welcome.Arena.TurnRate * netcode.StepInterval.Seconds()
	turn := max(-1, min(1, netcode.WrapAngle(want-self.Heading)/perStep))
	tr := netcode.Hitscan(&g.welcome.Arena, self, g.rules.ShotRange, g.targets)
	return Aim{TargetID: best.ID, Turn: turn, Aligned: tr.Hit && (!only || tr.TargetID == best.ID)}
}
