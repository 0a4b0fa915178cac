package render

import (
	"math"

	"tanknet/netcode"
	"tanknet/render/view"
)

// What the tour's scenes do by themselves on the live demo (its stage's actors): a scripted
// drive, the far player's gun, the two players ramming each other, and what they count.

// act does what the scene does by itself, before the panes' games update: it drives
// the players a scene drives while their keys are not held, and runs the far player's gun.
func (tg *tourGuide) act(g *window) {
	s, _, _, ok := tg.tour.Scene()
	if !ok {
		return
	}
	near, far, ok := g.mode.actors(g)
	if !ok {
		return
	}
	if s.NearDrive != (netcode.Input{}) && near.input == (netcode.Input{}) {
		near.input = s.NearDrive
	}
	if s.FarDrive != (netcode.Input{}) && far.input == (netcode.Input{}) {
		far.input = s.FarDrive
	}
	if s.Gunner {
		tg.runGunner(g, far, near.game.Welcome().PlayerID)
	}
	if s.Ram {
		ram(near, far.game.Welcome().PlayerID, nearMeet, &tg.script.met[0])
		ram(far, near.game.Welcome().PlayerID, farMeet, &tg.script.met[1])
		tg.settleContact(g, s.Contact)
	}
}

// The contact scenes' meeting points, on the open row along the arena's bottom edge (y 3:
// clear of every obstacle of the default arena): each player drives to its own, then along
// the row toward the other's, so no obstacle stands between them.
var (
	nearMeet = netcode.Pose{X: 15, Y: 3}
	farMeet  = netcode.Pose{X: 25, Y: 3}
)

// ram drives p, while its keys are idle, first to meet (until reached says it got there)
// and then at full throttle along the row at the tank target as its pane draws it, holding
// the row's line: two players that ram each other head-on stay in contact, pushing against
// each other; one that slips past the other turns back and rams again.
func ram(p *clientPane, target uint32, meet netcode.Pose, reached *bool) {
	l := p.game.Local()
	if p.input != (netcode.Input{}) || l == nil {
		return
	}
	self := l.Predicted()
	steer := func(heading float64) float64 {
		return max(-1, min(1, 3*netcode.WrapAngle(heading-self.Heading)))
	}
	if !*reached && math.Hypot(meet.X-self.X, meet.Y-self.Y) > 1 {
		turn := netcode.WrapAngle(math.Atan2(meet.Y-self.Y, meet.X-self.X) - self.Heading)
		p.input = netcode.Input{Turn: steer(self.Heading + turn), Throttle: 1}
		if math.Abs(turn) > 1 {
			p.input.Throttle = 0.2 // turn on the spot first
		}
		return
	}
	*reached = true
	other, ok := p.game.Remotes()[target]
	if !ok {
		return
	}
	along := math.Copysign(1, other.Pose.X-self.X)    // +1: the other is east
	heading := math.Atan2(0.5*(meet.Y-self.Y), along) // along the row, bending back onto it
	p.input = netcode.Input{Turn: steer(heading), Throttle: 1}
	if math.Abs(netcode.WrapAngle(heading-self.Heading)) > 1 {
		p.input.Throttle = 0.2 // turning back: on the spot
	}
}

// settleContact starts a contact scene's count once every player plays by mode and
// contactSettle frames of the scene have passed.
func (tg *tourGuide) settleContact(g *window, mode netcode.ContactMode) {
	if tg.script.contactSettled || g.frames-tg.sceneFrame < contactSettle {
		return
	}
	tg.script.contactBase = tg.script.contactBase[:0]
	for _, p := range g.panes {
		l := p.game.Local()
		if l == nil || p.game.Rules().Contact != mode {
			return
		}
		tg.script.contactBase = append(tg.script.contactBase, l.Counters())
	}
	tg.script.contactSettled = true
}

// contactTally returns what both players' contact did since the scene's mode settled.
func (tg *tourGuide) contactTally(g *window) view.ContactTally {
	var t view.ContactTally
	if !tg.script.contactSettled {
		return t
	}
	for i, p := range g.panes {
		b, n := tg.script.contactBase[i], p.game.Local().Counters()
		t.Pushes += n.Pushes - b.Pushes
		t.Corrections += n.CorrectionsStarted + n.CorrectionsFolded - b.CorrectionsStarted - b.CorrectionsFolded
		t.Snaps += n.Snaps - b.Snaps
	}
	return t
}

// Contact scenes show their lesson once they have counted this much of it: corrections in
// the old way, pushes (a second or two of ramming) when predicted.
const (
	contactShownCorrections = 10
	contactShownPushes      = 40
)

// gunnerRange is as near as the tour's gunner drives to its target before it stops: well
// inside the cannon's range, far enough that the target crosses its sight.
const gunnerRange = 12

// runGunner aims the far player's gun at the tank target as its pane draws it and fires
// whenever a shot would hit that drawing; it drives closer while out of gunnerRange, and
// flips lag compensation every view.GunnerFlipEvery judged shots.
func (tg *tourGuide) runGunner(g *window, p *clientPane, target uint32) {
	t := tg.shotTally(p)
	if judged := t.OnJudged + t.OffJudged; judged-tg.script.flipAt >= view.GunnerFlipEvery {
		p.lagComp, tg.script.flipAt = !p.lagComp, judged
		g.viewChanged = true
	}
	a := p.game.AimAt(target)
	if a.TargetID == 0 || p.input != (netcode.Input{}) {
		return // nothing to aim at, or the player drives
	}
	p.input.Turn = a.Turn
	self, them := p.game.Local().Predicted(), p.game.Remotes()[target].Pose
	if math.Hypot(them.X-self.X, them.Y-self.Y) > gunnerRange && math.Abs(a.Turn) < 0.5 {
		p.input.Throttle = 1
	}
	if a.Aligned {
		p.game.Fire(p.lagComp)
	}
}

// shotTally returns p's judged shots since the scene began, with and without lag
// compensation.
func (tg *tourGuide) shotTally(p *clientPane) view.ShotTally {
	return view.TallyShots(tg.script.shotBase, p.game.ShotStats())
}

// trail returns the tick trail's points, ok false unless the scene shows the trail.
func (tg *tourGuide) trail() (pts []view.TrailPoint, ok bool) {
	s, _, _, ok := tg.tour.Scene()
	if !ok || !s.Trail {
		return nil, false
	}
	return tg.script.trail.Points(), true
}

// followTrail adds the server's ticks read since the last frame to the tick trail.
func (tg *tourGuide) followTrail(truth *Truth) {
	s, _, _, ok := tg.tour.Scene()
	if !ok || !s.Trail {
		return
	}
	id := tg.script.trail.ID()
	for _, t := range truth.Recent {
		for i, tid := range t.IDs {
			if tid == id {
				tg.script.trail.Add(t.Tick, t.Poses[i])
			}
		}
	}
}
