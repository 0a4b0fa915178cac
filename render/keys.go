package render

import (
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
)

// viewKeys are the keys whose press changes what is drawn: the frame after is drawn whole.
var viewKeys = []ebiten.Key{ebiten.KeyF1, ebiten.KeyP, ebiten.KeyR, ebiten.KeyI, ebiten.KeyG, ebiten.KeyH, ebiten.KeyN, ebiten.KeyT, ebiten.KeyB, ebiten.KeyL, ebiten.KeyU, ebiten.KeyE, ebiten.KeyO, ebiten.KeyM, ebiten.KeyPeriod, ebiten.KeyComma, ebiten.KeyC}

// held reports whether any of keys is held.
func held(keys ...ebiten.Key) bool {
	for _, k := range keys {
		if ebiten.IsKeyPressed(k) {
			return true
		}
	}
	return false
}

// handleKeys reads the keyboard: the mode turns the driving keys into each pane's input, and
// each switch key pressed this tick flips its switch: the window's own (help, ghosts, HUD,
// strip) for the whole window, the mode's (slow motion, contact, bots) for its match, the
// technique and network ones for the panes the mode targets. It reports whether the player
// asked to quit.
func (g *window) handleKeys() (quit bool) {
	g.mode.drive(g)
	scores := g.opts.ShowScores || held(ebiten.KeyTab)
	g.viewChanged = g.viewChanged || scores != g.showScores
	g.showScores = scores

	pressed := inpututil.IsKeyJustPressed
	hudTapped := g.opts.Touch.HUDToggled() // a touch screen's H
	g.viewChanged = g.viewChanged || hudTapped
	for _, k := range viewKeys {
		g.viewChanged = g.viewChanged || pressed(k)
	}
	if g.tour.keys(g, pressed(ebiten.KeyPeriod), pressed(ebiten.KeyComma), pressed(ebiten.KeyO)) {
		return true // a tour that advances by itself closes the window after its last scene
	}
	switch {
	case pressed(ebiten.KeyEscape):
		return true
	case pressed(ebiten.KeyF1):
		g.showHelp = !g.showHelp
	case pressed(ebiten.KeyG):
		g.showGhosts = !g.showGhosts
	case pressed(ebiten.KeyH) || hudTapped:
		g.showHUD = !g.showHUD
	case pressed(ebiten.KeyE):
		g.expandHUD = !g.expandHUD
	case pressed(ebiten.KeyT):
		g.showStrip = !g.showStrip
	default:
		g.mode.key(g, pressed, held(ebiten.KeyShift))
	}
	for _, p := range g.mode.targets(g) {
		p.switchKey(pressed)
	}
	return false
}

// switchKey flips the technique or network switch whose key is pressed this tick.
func (p *clientPane) switchKey(pressed func(ebiten.Key) bool) {
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
	case pressed(ebiten.KeyU) && !p.recorded: // a recording says what the client asked for
		p.game.SetInputOnArrival(!p.game.InputOnArrival())
	case pressed(ebiten.KeyN):
		step := 1
		if held(ebiten.KeyShift) {
			step = -1
		}
		p.cyclePreset(step)
	}
}
