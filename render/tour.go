package render

import (
	"fmt"
	"math"
	"strings"

	"tanknet/client"
	"tanknet/netcode"
	"tanknet/render/view"
)

// tourFeatures are the features this window can show to the tour (view.Scene.Requires): U
// switches a pane's inputs between the server's buffer and on arrival, and the demo's C
// switches its room's contact mode.
func (g *window) tourFeatures() []string {
	fs := []string{view.FeatureInputBuffer}
	if g.setContact != nil {
		fs = append(fs, view.FeatureContact)
	}
	return fs
}

// contactSettle is how many frames of a contact scene pass, once both players play by its
// mode, before it counts: a second, for the snapshots of ticks played under the mode before
// to arrive, so the count is the scene's mode alone.
const contactSettle = 60

// tourMaxFrames bounds how long TourAdvance waits for a scene to show its lesson (hits and
// misses counted, the trail's ticks seen) before it goes on anyway: two minutes at 60 fps.
const tourMaxFrames = 2 * 60 * 60

// trailShown is how many moving ticks of the followed tank the trail counts before its
// figure is worth reading: three seconds of driving. trailSettle is how many ticks of a
// scene pass before it counts: a second, for the input buffer to fill or empty after the
// scene switched it.
const (
	trailShown  = 60
	trailSettle = 20
)

// tourScript is what the tour found when it began, to put back when it ends, and what its
// scene does by itself: the gunner's tally and the tick trail.
type tourScript struct {
	found     []paneSettings // per pane, as the tour found them
	foundSlow int
	trail     view.TickTrail
	shotBase  client.ShotStats // the far player's shot counters when the scene began
	flipAt    int              // judged shots of the scene at the gunner's last flip of L
	// foundContact is the room's contact mode when the tour began (0: the window cannot
	// switch it); in a contact scene, contactBase is each player's counters once the mode
	// settled (contactSettled).
	foundContact   netcode.ContactMode
	contactBase    []netcode.LocalCounters
	contactSettled bool
	met            [2]bool // in a contact scene, the near and far player reached their meeting points
}

// paneSettings are the switches and the network of a pane the tour changes.
type paneSettings struct {
	tech      view.Techniques
	lagComp   bool
	preset    string
	onArrival bool
}

func (p *clientPane) settings() paneSettings {
	s := paneSettings{tech: p.tech, lagComp: p.lagComp, onArrival: p.game.InputOnArrival()}
	if p.net != nil {
		s.preset = p.net.Preset
	}
	return s
}

func (p *clientPane) restore(s paneSettings) {
	p.tech, p.lagComp = s.tech, s.lagComp
	if s.preset != "" {
		p.setPreset(s.preset)
	}
	p.game.SetInputOnArrival(s.onArrival)
}

// String describes the settings for the window's report.
func (s paneSettings) String() string {
	on := func(b bool) string {
		if b {
			return "on"
		}
		return "off"
	}
	inputs := "buffered"
	if s.onArrival {
		inputs = "on arrival"
	}
	return fmt.Sprintf("prediction %s, reconciliation %s, interpolation %s, lag compensation %s, network %s, inputs %s",
		on(s.tech.Prediction), on(s.tech.Reconciliation), on(s.tech.Interpolation), on(s.lagComp), s.preset, inputs)
}

// startTour begins the guided tour and sets its first scene, after noting what it changes.
func (g *window) startTour() {
	g.tour = view.NewTour(view.TourScenes, g.tourFeatures()...)
	g.script.found = g.script.found[:0]
	for _, p := range g.panes {
		g.script.found = append(g.script.found, p.settings())
	}
	g.script.foundSlow = g.slow
	g.script.foundContact = netcode.ContactUnspecified
	if g.setContact != nil {
		g.script.foundContact = g.panes[0].game.Rules().Contact
	}
	if g.bots != nil {
		g.bots.HoldFire(true) // the tour's lessons are not interrupted by a bot's shells
	}
	g.reportSettings("found")
	g.tour.StartAt(max(g.opts.TourScene, 1))
	g.opts.TourScene = 0 // O starts the tour again from its first scene
	g.applyScene()
}

// endTour puts back every switch, network, speed and bot setting the tour found.
func (g *window) endTour() {
	g.tour.Stop()
	g.viewChanged = true
	for i, p := range g.panes {
		if i < len(g.script.found) {
			p.restore(g.script.found[i])
		}
	}
	g.setSlow(g.script.foundSlow)
	if found := g.script.foundContact; found != netcode.ContactUnspecified {
		if g.contactErr = g.setContact(found); g.contactErr == nil {
			g.contactAsked = found
		}
	}
	if g.bots != nil {
		g.bots.HoldFire(false)
	}
	g.reportSettings("restored")
}

// reportSettings writes each pane's settings and the speed to the report, as the tour found
// or restored them.
func (g *window) reportSettings(what string) {
	if g.opts.Report == nil {
		return
	}
	for i, p := range g.panes {
		fmt.Fprintf(g.opts.Report, "tankclient: tour %s pane %d: %s\n", what, i, p.settings())
	}
	fmt.Fprintf(g.opts.Report, "tankclient: tour %s speed 1/%d\n", what, g.slow)
}

// stepTour handles the tour's keys (next, back, start and stop: pressed reports a key
// pressed this tick) and its automatic advance. It reports whether the tour just ended by
// itself after its last scene with TourAdvance set: the window then closes.
func (g *window) stepTour(next, back, toggle bool) (ended bool) {
	switch {
	case toggle && g.tour.Running():
		g.reportScene()
		g.endTour()
		return false
	case toggle:
		g.startTour()
		return false
	case !g.tour.Running():
		return false
	}
	shown := g.frames-g.sceneFrame >= tourMaxFrames || g.sceneShown()
	auto := g.opts.TourAdvance > 0 && g.frames-g.sceneFrame >= g.opts.TourAdvance && shown
	if !next && !back && !auto {
		return false
	}
	g.reportScene()
	switch {
	case next || auto:
		if !g.tour.Next() {
			g.endTour()
			return auto
		}
	case back:
		g.tour.Back()
	}
	g.applyScene()
	return false
}

// applyScene sets the current scene's switches, networks and speed on the client panes: the
// near pane gets the scene's near network, the far pane (or a single window) the far one.
func (g *window) applyScene() {
	s, n, of, ok := g.tour.Scene()
	if !ok {
		return
	}
	g.sceneFrame = g.frames
	g.viewChanged = true
	for i, p := range g.panes {
		p.tech, p.lagComp = s.Techniques, s.LagComp
		if g.isDemo() && i == 0 {
			p.setPreset(s.NearNet)
			p.game.SetInputOnArrival(false)
		} else {
			p.setPreset(s.FarNet)
			p.game.SetInputOnArrival(s.InputOnArrival)
		}
	}
	g.setSlow(max(s.Slow, 1))
	if s.Contact != netcode.ContactUnspecified && g.setContact != nil {
		if g.contactErr = g.setContact(s.Contact); g.contactErr == nil {
			g.contactAsked = s.Contact
		}
	}
	g.script.contactSettled, g.script.met = false, [2]bool{}
	if g.isDemo() {
		far := g.panes[1]
		g.script.trail.Follow(far.game.Welcome().PlayerID, trailSettle)
		g.script.shotBase, g.script.flipAt = far.game.ShotStats(), 0
	}
	if g.opts.Report != nil {
		mode := "buffered" // as the far pane's (or the single window's) Game now asks for them
		if last := g.panes[len(g.panes)-1]; last.game.InputOnArrival() {
			mode = "on arrival"
		}
		fmt.Fprintf(g.opts.Report, "tankclient: tour scene %d of %d: %s (inputs %s)\n", n, of, s.Title, mode)
	}
}

// scriptTour does what the scene does by itself, before the panes' games update: it drives
// the players a scene drives while their keys are not held, and runs the far player's gun.
func (g *window) scriptTour() {
	s, _, _, ok := g.tour.Scene()
	if !ok || !g.isDemo() || g.playback != nil {
		return
	}
	near, far := g.panes[0], g.panes[1]
	if s.NearDrive != (netcode.Input{}) && near.input == (netcode.Input{}) {
		near.input = s.NearDrive
	}
	if s.FarDrive != (netcode.Input{}) && far.input == (netcode.Input{}) {
		far.input = s.FarDrive
	}
	if s.Gunner {
		g.runGunner(far, near.game.Welcome().PlayerID)
	}
	if s.Ram {
		ram(near, far.game.Welcome().PlayerID, nearMeet, &g.script.met[0])
		ram(far, near.game.Welcome().PlayerID, farMeet, &g.script.met[1])
		g.settleContact(s.Contact)
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
func (g *window) settleContact(mode netcode.ContactMode) {
	if g.script.contactSettled || g.frames-g.sceneFrame < contactSettle {
		return
	}
	g.script.contactBase = g.script.contactBase[:0]
	for _, p := range g.panes {
		l := p.game.Local()
		if l == nil || p.game.Rules().Contact != mode {
			return
		}
		g.script.contactBase = append(g.script.contactBase, l.Counters())
	}
	g.script.contactSettled = true
}

// contactTally returns what both players' contact did since the scene's mode settled.
func (g *window) contactTally() view.ContactTally {
	var t view.ContactTally
	if !g.script.contactSettled {
		return t
	}
	for i, p := range g.panes {
		b, n := g.script.contactBase[i], p.game.Local().Counters()
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
func (g *window) runGunner(p *clientPane, target uint32) {
	t := g.shotTally(p)
	if judged := t.OnJudged + t.OffJudged; judged-g.script.flipAt >= view.GunnerFlipEvery {
		p.lagComp, g.script.flipAt = !p.lagComp, judged
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
func (g *window) shotTally(p *clientPane) view.ShotTally {
	return view.TallyShots(g.script.shotBase, p.game.ShotStats())
}

// followTrail adds the server's ticks read since the last frame to the tick trail.
func (g *window) followTrail() {
	s, _, _, ok := g.tour.Scene()
	if !ok || !s.Trail {
		return
	}
	id := g.script.trail.ID()
	for _, t := range g.state.Recent {
		for i, tid := range t.IDs {
			if tid == id {
				g.script.trail.Add(t.Tick, t.Poses[i])
			}
		}
	}
}

// sceneShown reports whether the scene has shown its lesson: the gunner has hit with lag
// compensation and missed without, the trail has counted its ticks. A scene with nothing
// scripted, and any scene in a single window, has shown it at once.
func (g *window) sceneShown() bool {
	s, _, _, ok := g.tour.Scene()
	if !ok || !g.isDemo() {
		return true
	}
	switch {
	case s.Gunner:
		t := g.shotTally(g.panes[1])
		return t.OnHits > 0 && t.OffJudged > t.OffHits
	case s.Trail:
		return g.script.trail.Moving >= trailShown
	case s.Ram:
		t := g.contactTally()
		if s.Contact == netcode.ContactServer {
			return t.Corrections+t.Snaps >= contactShownCorrections
		}
		return t.Pushes >= contactShownPushes
	}
	return true
}

// sceneLines are what the scene counts, under its caption: the gunner's tally, the
// trail's figure.
func (g *window) sceneLines() []view.Line {
	s, _, _, ok := g.tour.Scene()
	if !ok || !g.isDemo() {
		return nil
	}
	switch {
	case s.Gunner:
		far := g.panes[1]
		return view.TallyLines(g.shotTally(far), far.lagComp)
	case s.Trail:
		return view.TrailLines(&g.script.trail)
	case s.Ram:
		return view.ContactTallyLines(g.contactTally()) // zeros until the scene's mode settled
	}
	return nil
}

// reportScene writes what the scene showed when it is left, for a test to check against
// its caption: the lines it counts on screen.
func (g *window) reportScene() {
	_, n, _, ok := g.tour.Scene()
	if !ok || g.opts.Report == nil {
		return
	}
	for _, l := range g.sceneLines() {
		fmt.Fprintf(g.opts.Report, "tankclient: tour scene %d showed: %s\n", n, strings.TrimSpace(l.Text))
	}
}

// tourLines are the current scene's caption for a panel (the demo's server pane, or the top
// of a single window's HUD), or nil when the tour is not running.
func (g *window) tourLines() []view.Line {
	s, n, of, ok := g.tour.Scene()
	if !ok {
		return nil
	}
	ls := []view.Line{{Text: fmt.Sprintf("Tour %d of %d: %s", n, of, s.Title), Style: view.Heading},
		// The keys come first: a short panel hides its last lines.
		{Text: ". next   , back   O ends the tour", Style: view.Plain}}
	caption := s.Caption
	if !g.isDemo() {
		caption = s.Solo
	}
	// One paragraph, wrapped by the panel to its width: the caption's lines are written for
	// reading in the source, and breaking them as written leaves ragged lines in a pane
	// narrower than they are.
	ls = append(ls, view.Line{Text: strings.Join(caption, " "), Style: view.Plain})
	return append(ls, g.sceneLines()...)
}
