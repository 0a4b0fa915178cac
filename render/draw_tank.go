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

// drawTanks draws a client pane's remote tanks, then its own on top, each with its ghosts,
// and last the name tag of every tank in view, placed so none leaves the arena or covers
// another.
func (g *window) drawTanks(dst *ebiten.Image, p *clientPane, f view.Frame) {
	if f.Scale <= 0 {
		return
	}
	a := &g.arena
	labels := g.labels[:0]
	l := p.game.Local()
	if l != nil { // first: its tag gets the best place
		id := p.game.Welcome().PlayerID
		labels = g.addLabel(labels, f, a, p.tech.LocalPose(l, &p.shadow), p.game.Name(id)+" (you)", view.PlayerColor(id))
	}
	for _, rm := range view.SortedRemotes(p.game) {
		newest, ok := rm.Interp.Newest()
		if !ok {
			continue // nothing received yet: nowhere to draw it
		}
		clr := view.PlayerColor(rm.ID)
		if rm.Combat.Destroyed {
			clr = view.WreckColor
		}
		pose := p.tech.RemotePose(rm)
		g.drawSprite(dst, f, a, pose, clr, solid)
		if g.showGhosts {
			g.drawSprite(dst, f, a, newest.Pose, clr, outline)
		}
		labels = g.addLabel(labels, f, a, pose, rm.Name, clr)
	}
	if l != nil {
		clr := view.PlayerColor(p.game.Welcome().PlayerID)
		if p.game.Own().Destroyed {
			clr = view.WreckColor
		}
		if g.showGhosts {
			g.drawSprite(dst, f, a, l.Predicted(), clr, translucent)
		}
		g.drawSprite(dst, f, a, p.tech.LocalPose(l, &p.shadow), clr, solid)
		if g.showGhosts {
			g.drawSprite(dst, f, a, l.Baseline().Pose, clr, outline)
		}
	}
	g.placeLabels(dst, f, labels)
}

// addLabel appends a name tag for a tank at pose to labels.
func (g *window) addLabel(labels []tankLabel, f view.Frame, a *netcode.Arena, pose netcode.Pose, name string, clr color.RGBA) []tankLabel {
	if name == "" || !f.Shows(pose.X, pose.Y, a.TankRadius) {
		return labels // a camera's view: a tank out of it gets no tag clamped to the edge
	}
	img := g.text.image(name, g.fonts.label, shade(clr, 1.4), true)
	sx, sy := f.ToScreen(pose.X, pose.Y)
	b := img.Bounds()
	// The tag keeps clear of the tank and of the health bar just above it.
	return append(labels, tankLabel{img, view.LabelSpec{X: sx, Y: sy, Radius: a.TankRadius*hullHalfLength*f.Scale + barHeightPx + 3,
		W: float64(b.Dx()), H: float64(b.Dy())}})
}

// placeLabels places the tags inside the arena (view.PlaceLabels) and draws them.
func (g *window) placeLabels(dst *ebiten.Image, f view.Frame, labels []tankLabel) {
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
func (g *window) drawSprite(dst *ebiten.Image, f view.Frame, a *netcode.Arena, p netcode.Pose, clr color.RGBA, style tankStyle) {
	if r, ok := g.sprites.draw(dst, f, a, p, clr, style); ok {
		g.damage.add(r.X, r.Y, r.W, r.H)
	}
}
