package render

import (
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"tanknet/netcode"
	"tanknet/render/view"
)

// tankStyle says how a pose is drawn: the tank itself, or one of the netcode's ghosts.
type tankStyle int

const (
	solid       tankStyle = iota // the pose the switches choose: what a player sees
	translucent                  // the local predicted pose
	outline                      // the newest server state
)

// Tank proportions, in tank radii (netcode.Arena.TankRadius). The hull is a little longer
// than the collision circle, so the heading reads at a glance.
const (
	hullHalfLength = 1.05
	hullHalfWidth  = 0.8
	bodyHalfWidth  = 0.55 // between the tracks
	turretRadius   = 0.42
	barrelLength   = 1.45
	barrelHalf     = 0.11
)

// drawTanks draws the remote tanks, then the local one on top, each with its ghosts.
func (g *Game) drawTanks(dst *ebiten.Image, f view.Frame, a *netcode.Arena) {
	if f.Scale <= 0 {
		return
	}
	for _, rm := range view.SortedRemotes(g.game) {
		newest, ok := rm.Interp.Newest()
		if !ok {
			continue // nothing received yet: nowhere to draw it
		}
		clr := view.PlayerColor(rm.ID)
		p := g.tech.RemotePose(rm)
		g.drawTank(dst, f, a, p, clr, solid)
		if g.showGhosts {
			g.drawTank(dst, f, a, newest.Pose, clr, outline)
		}
		name := rm.Name
		if name == "" {
			name = g.game.Name(rm.ID)
		}
		g.drawLabel(dst, f, a, p, name, clr)
	}

	l := g.game.Local()
	if l == nil {
		return
	}
	id := g.game.Welcome().PlayerID
	clr := view.PlayerColor(id)
	p := g.tech.LocalPose(l, &g.shadow)
	if g.showGhosts {
		g.drawTank(dst, f, a, l.Predicted(), clr, translucent)
	}
	g.drawTank(dst, f, a, p, clr, solid)
	if g.showGhosts {
		g.drawTank(dst, f, a, l.Baseline().Pose, clr, outline)
	}
	g.drawLabel(dst, f, a, p, g.game.Name(id)+" (you)", clr)
}

// drawTank draws one tank at p in style.
func (g *Game) drawTank(dst *ebiten.Image, f view.Frame, a *netcode.Arena, p netcode.Pose, clr color.RGBA, style tankStyle) {
	r := a.TankRadius
	sin, cos := math.Sincos(p.Heading)
	// at maps tank-local coordinates (u forward, v left, in radii) to the screen.
	at := func(u, v float64) (float32, float32) {
		u, v = u*r, v*r
		sx, sy := f.ToScreen(p.X+u*cos-v*sin, p.Y+u*sin+v*cos)
		return float32(sx), float32(sy)
	}
	box := func(path *vector.Path, u0, u1, v0, v1 float64) {
		path.MoveTo(at(u0, v0))
		path.LineTo(at(u1, v0))
		path.LineTo(at(u1, v1))
		path.LineTo(at(u0, v1))
		path.Close()
	}
	var hull, body, barrel, nose vector.Path
	box(&hull, -hullHalfLength, hullHalfLength, -hullHalfWidth, hullHalfWidth)
	box(&body, -hullHalfLength*0.85, hullHalfLength*0.9, -bodyHalfWidth, bodyHalfWidth)
	box(&barrel, 0, barrelLength, -barrelHalf, barrelHalf)
	nose.MoveTo(at(hullHalfLength*0.9, 0.35))
	nose.LineTo(at(hullHalfLength*0.9, -0.35))
	nose.LineTo(at(hullHalfLength*0.55, 0))
	nose.Close()
	cx, cy := at(0, 0)
	tr := float32(turretRadius * r * f.Scale)

	switch style {
	case solid:
		fillPath(dst, &hull, shade(clr, 0.45))
		fillPath(dst, &body, clr)
		fillPath(dst, &nose, shade(clr, 1.35))
		fillPath(dst, &barrel, shade(clr, 0.35))
		vector.FillCircle(dst, cx, cy, tr, shade(clr, 0.7), true)
		vector.StrokeCircle(dst, cx, cy, tr, 1, shade(clr, 0.35), true)
	case translucent:
		ghost := color.NRGBA{clr.R, clr.G, clr.B, 0x60}
		fillPath(dst, &hull, ghost)
		fillPath(dst, &barrel, ghost)
	case outline:
		edge := shade(clr, 1.6)
		strokePath(dst, &hull, 1.5, edge)
		strokePath(dst, &barrel, 1.5, edge)
	}
}

// drawLabel writes name centred above a tank at p.
func (g *Game) drawLabel(dst *ebiten.Image, f view.Frame, a *netcode.Arena, p netcode.Pose, name string, clr color.RGBA) {
	if name == "" {
		return
	}
	sx, sy := f.ToScreen(p.X, p.Y)
	op := &text.DrawOptions{}
	op.GeoM.Translate(sx, sy-a.TankRadius*1.5*f.Scale-labelSize-4)
	op.PrimaryAlign = text.AlignCenter
	op.ColorScale.ScaleWithColor(shade(clr, 1.4))
	text.Draw(dst, name, g.fonts.label, op)
}

// shade scales clr's brightness by k: below 1 darker, above 1 towards white.
func shade(clr color.RGBA, k float64) color.RGBA {
	f := func(c uint8) uint8 {
		v := float64(c)
		if k <= 1 {
			v *= k
		} else {
			v += (255 - v) * (k - 1) / 1.5
		}
		return uint8(math.Max(0, math.Min(255, math.Round(v))))
	}
	return color.RGBA{f(clr.R), f(clr.G), f(clr.B), clr.A}
}
