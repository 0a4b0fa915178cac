package render

import (
	"image"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"tanknet/render/view"
)

// An arena larger than a window's view (netcode.ViewWidth x ViewHeight, such as tankserver
// -arena large) is shown through a camera that follows the local tank, with a minimap of the
// whole field in the view's top-right corner. Everything moves with the camera, so such a
// frame is painted whole: the field in view, the tanks, then the minimap.

// Minimap drawing; its size and place are view.MinimapPlaces.
const (
	minimapMargin = 8 // pixels between the minimap and the HUD text above it
	minimapDot    = 3 // a tank's dot, pixels across (the local tank's is twice that)
)

// drawFollowed draws pane p through the camera frame f: the field in view, clipped to the
// view, the tanks and shots, and the minimap.
func (g *window) drawFollowed(dst *ebiten.Image, p *clientPane, f view.Frame) {
	r := f.Arena
	clip := dst.SubImage(image.Rect(int(r.X), int(r.Y), int(math.Ceil(r.X+r.W)), int(math.Ceil(r.Y+r.H)))).(*ebiten.Image)
	paintArena(clip, f, &g.arena)
	g.drawTanks(clip, p, f)
	g.drawCombat(clip, p, f)
	g.drawMinimap(dst, p, f)
}

// drawMinimap draws the whole field small at the bottom of a side panel with room for it, or
// else in the top-right corner of f's view (view.MinimapPlaces): the
// obstacles, the part the view shows, the tanks this client knows of and, brightest and
// largest, its own.
func (g *window) drawMinimap(dst *ebiten.Image, p *clientPane, f view.Frame) {
	a := &g.arena
	r, ok, corner := view.MinimapPlaces(f, a.Width, a.Height)
	if !ok || float64(p.hudRect.Max.Y)+minimapMargin > r.Y {
		r = corner // no side panel, or its HUD text reaches down to where the map would go
	}
	x0, y0, w, h := r.X, r.Y, r.W, r.H
	s := w / a.Width // pixels per world unit
	at := func(x, y float64) (float32, float32) { return float32(x0 + x*s), float32(y0 + (a.Height-y)*s) }

	vector.FillRect(dst, float32(x0), float32(y0), float32(w), float32(h), view.ArenaFloor, false)
	for _, o := range a.Obstacles {
		ox, oy := at(o.MinX, o.MaxY)
		vector.FillRect(dst, ox, oy, float32((o.MaxX-o.MinX)*s), float32((o.MaxY-o.MinY)*s), view.Obstacle, false)
	}
	vector.StrokeRect(dst, float32(x0), float32(y0), float32(w), float32(h), 1.5, view.ArenaWall, false)

	vx0, vy0, vx1, vy1 := f.Visible() // the part in view, kept inside the map's frame
	vx0, vy0, vx1, vy1 = max(vx0, 0), max(vy0, 0), min(vx1, a.Width), min(vy1, a.Height)
	sx, sy := at(vx0, vy1)
	vector.StrokeRect(dst, sx, sy, float32((vx1-vx0)*s), float32((vy1-vy0)*s), 1, view.RTTLine, false)

	for _, rm := range p.game.Remotes() {
		if _, ok := rm.Interp.Newest(); !ok {
			continue
		}
		tx, ty := at(rm.Pose.X, rm.Pose.Y)
		vector.FillRect(dst, tx-minimapDot/2, ty-minimapDot/2, minimapDot, minimapDot, view.PlayerColor(rm.ID), false)
	}
	if l := p.game.Local(); l != nil {
		pose := p.tech.LocalPose(l, &p.shadow)
		tx, ty := at(pose.X, pose.Y)
		vector.FillRect(dst, tx-minimapDot, ty-minimapDot, 2*minimapDot, 2*minimapDot, view.PlayerColor(p.game.Welcome().PlayerID), false)
	}
}
