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
	if g.pred.local == nil || g.combat.own.Destroyed {
		return Aim{}
	}
	self := g.pred.local.Predicted()
	g.combat.targets = g.others.targets(g.combat.targets[:0])
	best, ok := nearest(self, g.combat.targets)
	if !ok {
		return Aim{}
	}
	return g.aimAt(self, best, false)
}

// nearest returns the target nearest self (the lower id of two as near), false when there is
// none.
func nearest(self netcode.Pose, targets []netcode.Target) (netcode.Target, bool) {
	var best netcode.Target
	found := false
	bestD := math.Inf(1)
	for _, t := range targets {
		if d := self.Distance(t.Pose); d < bestD || (d == bestD && found && t.ID < best.ID) {
			best, bestD, found = t, d, true
		}
	}
	return best, found
}

// AimAt returns the steering that points our predicted tank at the remote tank id as drawn,
// and whether a shot now would hit that tank (not another in the way); the zero Aim when it
// is not drawn as a live target. The guided tour's scripted gunner aims with it.
func (g *Game) AimAt(id uint32) Aim {
	rm := g.others.tanks[id]
	if g.pred.local == nil || g.combat.own.Destroyed || rm == nil || !rm.target() {
		return Aim{}
	}
	g.combat.targets = g.others.targets(g.combat.targets[:0])
	return g.aimAt(g.pred.local.Predicted(), netcode.Target{ID: id, Pose: rm.Pose}, true)
}

// aimAt steers self toward best; Aligned says a shot on the targets drawn would hit a tank
// (only best, when only is set).
func (g *Game) aimAt(self netcode.Pose, best netcode.Target, only bool) Aim {
	want := math.Atan2(best.Pose.Y-self.Y, best.Pose.X-self.X)
	perStep := g.welcome.Arena.TurnRate * netcode.StepInterval.Seconds()
	turn := max(-1, min(1, netcode.WrapAngle(want-self.Heading)/perStep))
	tr := netcode.Hitscan(&g.welcome.Arena, self, g.rules.ShotRange, g.combat.targets)
	return Aim{TargetID: best.ID, Turn: turn, Aligned: tr.Hit && (!only || tr.TargetID == best.ID)}
}
