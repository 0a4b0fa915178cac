package render

import (
	"fmt"
	"strings"

	"tanknet/client"
	"tanknet/netcode"
	"tanknet/render/view"
)

// tourGuide is the guided tour (O, Options.Tour), on top of whichever mode the window runs:
// it sets each scene's switches on the client panes, and asks the mode's stage for the rest
// (the networks, slow motion, contact, the bots, the players it drives). Its scenes and
// captions are view.TourScenes.
type tourGuide struct {
	tour       view.Tour
	sceneFrame int        // the frame the tour's scene began, for Options.TourAdvance
	script     tourScript // what the tour does by itself
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

// start begins the guided tour and sets its first scene, after noting what it changes.
func (tg *tourGuide) start(g *window) {
	tg.tour = view.NewTour(view.TourScenes, g.mode.features()...)
	tg.script.found = tg.script.found[:0]
	for _, p := range g.panes {
		tg.script.found = append(tg.script.found, p.settings())
	}
	tg.script.foundSlow = g.mode.slowFactor()
	tg.script.foundContact, _ = g.mode.contact(g) // unspecified where it cannot be switched
	g.mode.holdFire(true)                         // the tour's lessons are not interrupted by a bot's shells
	tg.reportSettings(g, "found")
	tg.tour.StartAt(max(g.opts.TourScene, 1))
	g.opts.TourScene = 0 // O starts the tour again from its first scene
	tg.applyScene(g)
}

// end puts back every switch, network, speed and bot setting the tour found.
func (tg *tourGuide) end(g *window) {
	tg.tour.Stop()
	g.viewChanged = true
	for i, p := range g.panes {
		if i < len(tg.script.found) {
			p.restore(tg.script.found[i])
		}
	}
	g.mode.setSlow(g, tg.script.foundSlow)
	if found := tg.script.foundContact; found != netcode.ContactUnspecified {
		g.mode.setContact(g, found)
	}
	g.mode.holdFire(false)
	tg.reportSettings(g, "restored")
}

// reportSettings writes each pane's settings and the speed to the report, as the tour found
// or restored them.
func (tg *tourGuide) reportSettings(g *window, what string) {
	if g.opts.Report == nil {
		return
	}
	for i, p := range g.panes {
		fmt.Fprintf(g.opts.Report, "tankclient: tour %s pane %d: %s\n", what, i, p.settings())
	}
	fmt.Fprintf(g.opts.Report, "tankclient: tour %s speed 1/%d\n", what, g.mode.slowFactor())
}

// keys handles the tour's keys (next, back, start and stop: pressed reports a key
// pressed this tick) and its automatic advance. It reports whether the tour just ended by
// itself after its last scene with TourAdvance set: the window then closes.
func (tg *tourGuide) keys(g *window, next, back, toggle bool) (ended bool) {
	switch {
	case toggle && tg.tour.Running():
		tg.reportScene(g)
		tg.end(g)
		return false
	case toggle:
		tg.start(g)
		return false
	case !tg.tour.Running():
		return false
	}
	shown := g.frames-tg.sceneFrame >= tourMaxFrames || tg.sceneShown(g)
	auto := g.opts.TourAdvance > 0 && g.frames-tg.sceneFrame >= g.opts.TourAdvance && shown
	if !next && !back && !auto {
		return false
	}
	tg.reportScene(g)
	switch {
	case next || auto:
		if !tg.tour.Next() {
			tg.end(g)
			return auto
		}
	case back:
		tg.tour.Back()
	}
	tg.applyScene(g)
	return false
}

// applyScene sets the current scene's switches, networks and speed on the client panes: the
// near pane gets the scene's near network, the far pane (or a single window) the far one.
func (tg *tourGuide) applyScene(g *window) {
	s, n, of, ok := tg.tour.Scene()
	if !ok {
		return
	}
	tg.sceneFrame = g.frames
	g.viewChanged = true
	for i, p := range g.panes {
		p.tech, p.lagComp = s.Techniques, s.LagComp
		g.mode.setNet(i, p, s)
	}
	g.mode.setSlow(g, max(s.Slow, 1))
	if _, ok := g.mode.contact(g); ok && s.Contact != netcode.ContactUnspecified {
		g.mode.setContact(g, s.Contact)
	}
	tg.script.contactSettled, tg.script.met = false, [2]bool{}
	if far, ok := g.mode.far(g); ok {
		tg.script.trail.Follow(far.game.Welcome().PlayerID, trailSettle)
		tg.script.shotBase, tg.script.flipAt = far.game.ShotStats(), 0
	}
	if g.opts.Report != nil {
		mode := "buffered" // as the far pane's (or the single window's) Game now asks for them
		if last := g.panes[len(g.panes)-1]; last.game.InputOnArrival() {
			mode = "on arrival"
		}
		fmt.Fprintf(g.opts.Report, "tankclient: tour scene %d of %d: %s (inputs %s)\n", n, of, s.Title, mode)
	}
}

// sceneShown reports whether the scene has shown its lesson: the gunner has hit with lag
// compensation and missed without, the trail has counted its ticks. A scene with nothing
// scripted, and any scene in a single window, has shown it at once.
func (tg *tourGuide) sceneShown(g *window) bool {
	s, _, _, ok := tg.tour.Scene()
	far, demo := g.mode.far(g)
	if !ok || !demo {
		return true
	}
	switch {
	case s.Gunner:
		t := tg.shotTally(far)
		return t.OnHits > 0 && t.OffJudged > t.OffHits
	case s.Trail:
		return tg.script.trail.Moving >= trailShown
	case s.Ram:
		t := tg.contactTally(g)
		if s.Contact == netcode.ContactServer {
			return t.Corrections+t.Snaps >= contactShownCorrections
		}
		return t.Pushes >= contactShownPushes
	}
	return true
}

// sceneLines are what the scene counts, under its caption: the gunner's tally, the
// trail's figure.
func (tg *tourGuide) sceneLines(g *window) []view.Line {
	s, _, _, ok := tg.tour.Scene()
	far, demo := g.mode.far(g)
	if !ok || !demo {
		return nil
	}
	switch {
	case s.Gunner:
		return view.TallyLines(tg.shotTally(far), far.lagComp)
	case s.Trail:
		return view.TrailLines(&tg.script.trail)
	case s.Ram:
		return view.ContactTallyLines(tg.contactTally(g)) // zeros until the scene's mode settled
	}
	return nil
}

// reportScene writes what the scene showed when it is left, for a test to check against
// its caption: the lines it counts on screen.
func (tg *tourGuide) reportScene(g *window) {
	_, n, _, ok := tg.tour.Scene()
	if !ok || g.opts.Report == nil {
		return
	}
	for _, l := range tg.sceneLines(g) {
		fmt.Fprintf(g.opts.Report, "tankclient: tour scene %d showed: %s\n", n, strings.TrimSpace(l.Text))
	}
}

// lines are the current scene's caption for a panel (the demo's server pane, or the top
// of a single window's HUD), or nil when the tour is not running.
func (tg *tourGuide) lines(g *window) []view.Line {
	s, n, of, ok := tg.tour.Scene()
	if !ok {
		return nil
	}
	ls := []view.Line{{Text: fmt.Sprintf("Tour %d of %d: %s", n, of, s.Title), Style: view.Heading},
		// The keys come first: a short panel hides its last lines.
		{Text: ". next   , back   O ends the tour", Style: view.Plain}}
	caption := g.mode.caption(s)
	// One paragraph, wrapped by the panel to its width: the caption's lines are written for
	// reading in the source, and breaking them as written leaves ragged lines in a pane
	// narrower than they are.
	ls = append(ls, view.Line{Text: strings.Join(caption, " "), Style: view.Plain})
	return append(ls, tg.sceneLines(g)...)
}
