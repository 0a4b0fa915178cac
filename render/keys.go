package render

import (
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"tanknet/render/view"
	"tanknet/transport"
)

// handleKeys reads the keyboard: the driving keys become g.input, and each switch key
// pressed this tick flips its switch. It reports whether the player asked to quit.
func (g *Game) handleKeys() (quit bool) {
	held := func(keys ...ebiten.Key) bool {
		for _, k := range keys {
			if ebiten.IsKeyPressed(k) {
				return true
			}
		}
		return false
	}
	g.input = view.Keys{
		Forward: held(ebiten.KeyW, ebiten.KeyArrowUp),
		Back:    held(ebiten.KeyS, ebiten.KeyArrowDown),
		Left:    held(ebiten.KeyA, ebiten.KeyArrowLeft),
		Right:   held(ebiten.KeyD, ebiten.KeyArrowRight),
	}.Input()

	pressed := inpututil.IsKeyJustPressed
	for _, k := range []ebiten.Key{ebiten.KeyF1, ebiten.KeyP, ebiten.KeyR, ebiten.KeyI, ebiten.KeyG, ebiten.KeyH, ebiten.KeyN} {
		g.viewChanged = g.viewChanged || pressed(k)
	}
	switch {
	case pressed(ebiten.KeyEscape):
		return true
	case pressed(ebiten.KeyF1):
		g.showHelp = !g.showHelp
	case pressed(ebiten.KeyP):
		g.tech.TogglePrediction()
	case pressed(ebiten.KeyR):
		g.tech.ToggleReconciliation()
	case pressed(ebiten.KeyI):
		g.tech.ToggleInterpolation()
	case pressed(ebiten.KeyG):
		g.showGhosts = !g.showGhosts
	case pressed(ebiten.KeyH):
		g.showHUD = !g.showHUD
	case pressed(ebiten.KeyN):
		step := 1
		if held(ebiten.KeyShift) {
			step = -1
		}
		g.cyclePreset(step)
	}
	return false
}

// cyclePreset switches the link conditioner to the next (step 1) or previous (-1) preset.
func (g *Game) cyclePreset(step int) {
	if g.net == nil {
		return
	}
	name := view.CyclePreset(transport.PresetNames(), g.net.Preset, step)
	c, err := transport.Preset(name)
	if err == nil {
		err = g.net.Conn.SetConditions(c)
	}
	g.netErr = err
	if err == nil {
		g.net.Preset = name
	}
}
