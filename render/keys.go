package render

import (
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"tanknet/render/view"
)

// handleKeys reads the keyboard: the driving keys become each pane's input, and each switch
// key pressed this tick flips its switch: the window's own (help, ghosts, HUD, strip) for
// the whole window, the technique and network ones for the panes they target. It reports
// whether the player asked to quit.
func (g *window) handleKeys() (quit bool) {
	held := func(keys ...ebiten.Key) bool {
		for _, k := range keys {
			if ebiten.IsKeyPressed(k) {
				return true
			}
		}
		return false
	}
	wasd := view.Keys{Forward: held(ebiten.KeyW), Back: held(ebiten.KeyS), Left: held(ebiten.KeyA), Right: held(ebiten.KeyD)}
	arrows := view.Keys{Forward: held(ebiten.KeyArrowUp), Back: held(ebiten.KeyArrowDown), Left: held(ebiten.KeyArrowLeft), Right: held(ebiten.KeyArrowRight)}
	for _, p := range g.panes {
		if g.playback != nil {
			break // a recording drives the pane; the arrows and Space play it
		}
		switch p.keys {
		case driveWASD:
			p.input = wasd.Input()
		case driveArrows:
			p.input = arrows.Input()
		default:
			p.input = view.Keys{Forward: wasd.Forward || arrows.Forward, Back: wasd.Back || arrows.Back,
				Left: wasd.Left || arrows.Left, Right: wasd.Right || arrows.Right}.Input()
		}
	}

	for _, p := range g.panes {
		if g.playback != nil {
			break
		}
		switch p.keys {
		case driveArrows:
			p.firing = held(ebiten.KeyEnter)
		default:
			p.firing = held(ebiten.KeySpace)
		}
	}
	scores := g.opts.ShowScores || held(ebiten.KeyTab)
	g.viewChanged = g.viewChanged || scores != g.showScores
	g.showScores = scores

	pressed := inpututil.IsKeyJustPressed
	for _, k := range []ebiten.Key{ebiten.KeyF1, ebiten.KeyP, ebiten.KeyR, ebiten.KeyI, ebiten.KeyG, ebiten.KeyH, ebiten.KeyN, ebiten.KeyT, ebiten.KeyB, ebiten.KeyL, ebiten.KeyU, ebiten.KeyE, ebiten.KeyO, ebiten.KeyM, ebiten.KeyPeriod, ebiten.KeyComma, ebiten.KeyC} {
		g.viewChanged = g.viewChanged || pressed(k)
	}
	if g.stepTour(pressed(ebiten.KeyPeriod), pressed(ebiten.KeyComma), pressed(ebiten.KeyO)) {
		return true // a tour that advances by itself closes the window after its last scene
	}
	switch {
	case pressed(ebiten.KeyEscape):
		return true
	case pressed(ebiten.KeyF1):
		g.showHelp = !g.showHelp
	case pressed(ebiten.KeyG):
		g.showGhosts = !g.showGhosts
	case pressed(ebiten.KeyH):
		g.showHUD = !g.showHUD
	case pressed(ebiten.KeyE):
		g.expandHUD = !g.expandHUD
	case pressed(ebiten.KeyT):
		g.showStrip = !g.showStrip
	case pressed(ebiten.KeyM):
		step := 1
		if held(ebiten.KeyShift) {
			step = -1
		}
		g.setSlow(view.NextSlow(g.slow, step))
	case pressed(ebiten.KeyC) && g.setContact != nil:
		g.cycleContact()
	case g.bots != nil && (pressed(ebiten.KeyEqual) || pressed(ebiten.KeyNumpadAdd)):
		g.bots.Add()
	case g.bots != nil && (pressed(ebiten.KeyMinus) || pressed(ebiten.KeyNumpadSubtract)):
		g.bots.Remove()
	}
	for _, p := range g.targets() {
		switch {
		case pressed(ebiten.KeyP):
			p.tech.TogglePrediction()
		case pressed(ebiten.KeyR):
			p.tech.ToggleReconciliation()
		case pressed(ebiten.KeyI):
			p.tech.ToggleInterpolation()
		case pressed(ebiten.KeyB):
			p.selectNext()
		case pressed(ebiten.KeyL):
			p.lagComp = !p.lagComp
		case pressed(ebiten.KeyU) && g.playback == nil: // a recording says what the client asked for
			p.game.SetInputOnArrival(!p.game.InputOnArrival())
		case pressed(ebiten.KeyN):
			step := 1
			if held(ebiten.KeyShift) {
				step = -1
			}
			p.cyclePreset(step)
		}
	}
	return false
}

// targets returns the panes a technique or network key acts on: the only one, or in the
// demo the client pane under the mouse, or both when the mouse is over the server pane or
// outside the window.
func (g *window) targets() []*clientPane {
	if !g.isDemo() || len(g.layout) == 0 {
		return g.panes
	}
	x, y := ebiten.CursorPosition()
	switch view.PaneAt(g.layout, float64(x), float64(y)) {
	case view.NearPane:
		return g.panes[:1]
	case view.FarPane:
		return g.panes[1:]
	}
	return g.panes
}
