package render

import (
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"

	"tanknet/netcode"
	"tanknet/render/view"
)

// tankLabel is a name tag waiting to be placed once every tank is drawn.
type tankLabel struct {
	img  *ebiten.Image
	spec view.LabelSpec
}

// drawTanks draws the remote tanks, then the local one on top, each with its ghosts, and
// last every name tag, placed so none leaves the arena or covers another.
func (g *Game) drawTanks(dst *ebiten.Image, f view.Frame, a *netcode.Arena) {
	if f.Scale <= 0 {
		return
	}
	labels := g.labels[:0]
	label := func(p netcode.Pose, name string, clr color.RGBA) {
		if name == "" {
			return
		}
		img := g.text.image(name, g.fonts.label, shade(clr, 1.4), true)
		sx, sy := f.ToScreen(p.X, p.Y)
		b := img.Bounds()
		labels = append(labels, tankLabel{img, view.LabelSpec{X: sx, Y: sy, Radius: a.TankRadius * hullHalfLength * f.Scale,
			W: float64(b.Dx()), H: float64(b.Dy())}})
	}

	if l := g.game.Local(); l != nil {
		id := g.game.Welcome().PlayerID
		label(g.tech.LocalPose(l, &g.shadow), g.game.Name(id)+" (you)", view.PlayerColor(id)) // first: it gets the best place
	}
	for _, rm := range view.SortedRemotes(g.game) {
		newest, ok := rm.Interp.Newest()
		if !ok {
			continue // nothing received yet: nowhere to draw it
		}
		clr := view.PlayerColor(rm.ID)
		p := g.tech.RemotePose(rm)
		g.drawSprite(dst, f, a, p, clr, solid)
		if g.showGhosts {
			g.drawSprite(dst, f, a, newest.Pose, clr, outline)
		}
		name := rm.Name
		if name == "" {
			name = g.game.Name(rm.ID)
		}
		label(p, name, clr)
	}

	if l := g.game.Local(); l != nil {
		clr := view.PlayerColor(g.game.Welcome().PlayerID)
		if g.showGhosts {
			g.drawSprite(dst, f, a, l.Predicted(), clr, translucent)
		}
		g.drawSprite(dst, f, a, g.tech.LocalPose(l, &g.shadow), clr, solid)
		if g.showGhosts {
			g.drawSprite(dst, f, a, l.Baseline().Pose, clr, outline)
		}
	}

	specs := g.labelSpecs[:0]
	for _, l := range labels {
		specs = append(specs, l.spec)
	}
	g.labelRects = view.PlaceLabels(specs, f.Arena, g.labelRects)
	for i, l := range labels {
		g.drawDamaging(dst, l.img, g.labelRects[i].X, g.labelRects[i].Y)
	}
	g.labels, g.labelSpecs = labels, specs
}

// drawSprite draws a tank like sprites.draw and records where as damage.
func (g *Game) drawSprite(dst *ebiten.Image, f view.Frame, a *netcode.Arena, p netcode.Pose, clr color.RGBA, style tankStyle) {
	if r, ok := g.sprites.draw(dst, f, a, p, clr, style); ok {
		g.damage.add(r.X, r.Y, r.W, r.H)
	}
}
