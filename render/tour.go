package render

import (
	"fmt"
	"strings"

	"tanknet/render/view"
)

// tourFeatures are the features this window can show to the tour (view.Scene.Requires): U
// switches a pane's inputs between the server's buffer and on arrival.
var tourFeatures = []string{view.FeatureInputBuffer}

// startTour begins the guided tour and sets its first scene.
func (g *Game) startTour() {
	g.tour = view.NewTour(view.TourScenes, tourFeatures...)
	g.tour.Start()
	g.applyScene()
}

// stepTour handles the tour's keys (next, back, start and stop: pressed reports a key
// pressed this tick) and its automatic advance. It reports whether the tour just ended by
// itself after its last scene with TourAdvance set: the window then closes.
func (g *Game) stepTour(next, back, toggle bool) (ended bool) {
	switch {
	case toggle && g.tour.Running():
		g.tour.Stop()
		g.viewChanged = true
		return false
	case toggle:
		g.startTour()
		return false
	case !g.tour.Running():
		return false
	}
	auto := g.opts.TourAdvance > 0 && g.frames-g.sceneFrame >= g.opts.TourAdvance
	switch {
	case next || auto:
		if !g.tour.Next() {
			g.viewChanged = true
			return auto
		}
	case back:
		g.tour.Back()
	default:
		return false
	}
	g.applyScene()
	return false
}

// applyScene sets the current scene's switches and networks on the client panes: the near
// pane gets the scene's near network, the far pane (or a single window) the far one.
func (g *Game) applyScene() {
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
	if g.opts.Report != nil {
		mode := "buffered" // as the far pane's (or the single window's) Game now asks for them
		if last := g.panes[len(g.panes)-1]; last.game.InputOnArrival() {
			mode = "on arrival"
		}
		fmt.Fprintf(g.opts.Report, "tankclient: tour scene %d of %d: %s (inputs %s)\n", n, of, s.Title, mode)
	}
}

// tourLines are the current scene's caption for a panel (the demo's server pane, or the top
// of a single window's HUD), or nil when the tour is not running.
func (g *Game) tourLines() []view.Line {
	s, n, of, ok := g.tour.Scene()
	if !ok {
		return nil
	}
	ls := []view.Line{{Text: fmt.Sprintf("Tour %d of %d: %s", n, of, s.Title), Style: view.Heading}}
	caption := s.Caption
	if !g.isDemo() {
		caption = s.Solo
	}
	// One paragraph, wrapped by the panel to its width: the caption's lines are written for
	// reading in the source, and breaking them as written leaves ragged lines in a pane
	// narrower than they are.
	ls = append(ls, view.Line{Text: strings.Join(caption, " "), Style: view.Plain})
	return append(ls, view.Line{Text: ". next   , back   O ends the tour", Style: view.Plain})
}
