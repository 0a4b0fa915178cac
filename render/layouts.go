package render

import (
	"image"
	"io"

	"github.com/hajimehoshi/ebiten/v2"

	"tanknet/netcode"
	"tanknet/render/view"
)

// onePane is the layout of one player's window (the live window, a client replay): its
// pane fills the window but for below pixels at the bottom (the playback bar's), through a
// camera on an arena larger than the view.
type onePane struct {
	below int
}

func (o onePane) layout(w *window, b image.Rectangle, dst []view.Pane) []view.Pane {
	b.Max.Y = max(b.Max.Y-o.below, b.Min.Y+1)
	a := &w.arena
	if a.Fits() {
		return append(dst, view.SingleLayout(b.Dx(), b.Dy(), a.Width, a.Height, w.showHUD, w.showStrip))
	}
	// An arena larger than the view: a camera shows the view around the local tank.
	pane := view.SingleLayout(b.Dx(), b.Dy(), netcode.ViewWidth, netcode.ViewHeight, w.showHUD, w.showStrip)
	at := netcode.Pose{X: a.Width / 2, Y: a.Height / 2}
	if p := w.panes[0]; p.game.Local() != nil {
		at = p.tech.LocalPose(p.game.Local(), &p.shadow)
	}
	pane.Frame = pane.Frame.Follow(at.X, at.Y)
	return append(dst, pane)
}

func (onePane) paneIndex(i int) int                                  { return i }
func (onePane) targets(w *window) []*clientPane                      { return w.panes }
func (onePane) help() []view.Line                                    { return view.Help(false) }
func (onePane) expandArea(_ *window, _ int, win view.Rect) view.Rect { return win }
func (onePane) caption(s view.Scene) []string                        { return s.Solo }
func (onePane) far(*window) (*clientPane, bool)                      { return nil, false }
func (onePane) tourLegend() bool                                     { return false }
func (onePane) reportShot(*window, io.Writer)                        {}

// setNet gives the only pane the scene's far network: the player the lesson is about.
func (onePane) setNet(_ int, p *clientPane, s view.Scene) {
	p.setPreset(s.FarNet)
	p.game.SetInputOnArrival(s.InputOnArrival)
}

// threePanes is the demo's layout (near player | server | far player), with below pixels
// kept at the bottom (the playback bar's).
type threePanes struct {
	below int
}

func (t threePanes) layout(w *window, b image.Rectangle, dst []view.Pane) []view.Pane {
	b.Max.Y = max(b.Max.Y-t.below, b.Min.Y+1)
	ps := view.DemoLayout(b.Dx(), b.Dy(), w.arena.Width, w.arena.Height, w.showHUD, w.showStrip)
	return append(dst, ps[:]...)
}

// paneIndex puts the far player, client pane 1, in the third place.
func (threePanes) paneIndex(i int) int {
	if i == 1 {
		return view.FarPane
	}
	return i
}

// targets returns the client pane under the mouse, or both when the mouse is over the
// server pane or outside the window.
func (threePanes) targets(w *window) []*clientPane {
	if len(w.layout) == 0 {
		return w.panes
	}
	x, y := ebiten.CursorPosition()
	switch view.PaneAt(w.layout, float64(x), float64(y)) {
	case view.NearPane:
		return w.panes[:1]
	case view.FarPane:
		return w.panes[1:]
	}
	return w.panes
}

func (threePanes) help() []view.Line             { return view.Help(true) }
func (threePanes) caption(s view.Scene) []string { return s.Caption }
func (threePanes) tourLegend() bool              { return true }

func (t threePanes) expandArea(w *window, i int, _ view.Rect) view.Rect {
	return w.layout[t.paneIndex(i)].Bounds
}

func (threePanes) far(w *window) (*clientPane, bool) { return w.panes[1], true }

// setNet gives the near player the scene's near network and buffered inputs, the far one
// the scene's far network and inputs.
func (threePanes) setNet(i int, p *clientPane, s view.Scene) {
	if i == 0 {
		p.setPreset(s.NearNet)
		p.game.SetInputOnArrival(false)
		return
	}
	p.setPreset(s.FarNet)
	p.game.SetInputOnArrival(s.InputOnArrival)
}

// fixed is what a mode gives whose match the window cannot change (the live window, the
// replays): a stage with no slow motion, contact switch, bots or scripted players, so the
// tour changes only the panes' switches and networks; no keys of its own; and nothing drawn
// beside the panes. A mode that has one of these defines it itself.
type fixed struct{}

func (fixed) features() []string                              { return []string{view.FeatureInputBuffer} }
func (fixed) slowFactor() int                                 { return 1 }
func (fixed) setSlow(*window, int)                            {}
func (fixed) contact(*window) (netcode.ContactMode, bool)     { return netcode.ContactUnspecified, false }
func (fixed) setContact(*window, netcode.ContactMode)         {}
func (fixed) holdFire(bool)                                   {}
func (fixed) actors(*window) (near, far *clientPane, ok bool) { return nil, nil, false }
func (fixed) key(*window, func(ebiten.Key) bool, bool)        {}
func (fixed) drawOver(*window, *ebiten.Image)                 {}
func (fixed) draw(*window, *ebiten.Image, bool)               {}
