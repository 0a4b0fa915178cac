package render

import (
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
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

// spritePad is the transparent border around a sprite, in pixels: room for the outline's
// stroke and for linear filtering at the edges when the sprite is rotated.
const spritePad = 3

// spriteKey names one prepared tank image.
type spriteKey struct {
	clr   color.RGBA
	style tankStyle
}

// sprites holds every tank image drawn so far, prepared once at the current size (pixels per
// tank radius) with anti-aliased paths, and drawn every frame with a rotate-and-translate
// transform. Ebitengine packs these small images into one texture, so all tanks of a frame
// go out in a few draw calls instead of several path fills each.
type sprites struct {
	radiusPx float64 // pixels per tank radius the images were drawn at
	images   map[spriteKey]*ebiten.Image
}

// draw draws a tank of colour clr in style at pose p, under layout f, and returns a screen
// rectangle holding everything it drew (false when it drew nothing).
func (s *sprites) draw(dst *ebiten.Image, f view.Frame, a *netcode.Arena, p netcode.Pose, clr color.RGBA, style tankStyle) (view.Rect, bool) {
	rpx := a.TankRadius * f.Scale
	if rpx <= 0 {
		return view.Rect{}, false
	}
	img := s.get(rpx, clr, style)
	// The sprite points along +x with its centre at (cx, cy). World headings turn
	// counter-clockwise with y up; the screen's y points down, so the screen rotation is the
	// negated heading.
	cx, cy := spriteCentre(rpx)
	sx, sy := f.ToScreen(p.X, p.Y)
	op := &ebiten.DrawImageOptions{Filter: ebiten.FilterLinear}
	op.GeoM.Translate(-cx, -cy)
	op.GeoM.Rotate(-p.Heading)
	op.GeoM.Translate(sx, sy)
	dst.DrawImage(img, op)
	// Whatever the heading, the sprite stays within its farthest corner's distance of the
	// centre.
	b := img.Bounds()
	reach := math.Hypot(math.Max(cx, float64(b.Dx())-cx), math.Max(cy, float64(b.Dy())-cy))
	return view.Rect{X: sx - reach, Y: sy - reach, W: 2 * reach, H: 2 * reach}, true
}

// get returns the image for (clr, style) at rpx pixels per radius, preparing it when new.
// A new size (the window was resized) drops every image prepared for the old one.
func (s *sprites) get(rpx float64, clr color.RGBA, style tankStyle) *ebiten.Image {
	if s.radiusPx != rpx {
		for _, img := range s.images {
			img.Deallocate()
		}
		s.images, s.radiusPx = map[spriteKey]*ebiten.Image{}, rpx
	}
	k := spriteKey{clr, style}
	img := s.images[k]
	if img == nil {
		img = paintTank(rpx, clr, style)
		s.images[k] = img
	}
	return img
}

// spriteCentre returns where the tank's centre sits in a sprite drawn at rpx pixels per
// radius: the barrel reaches further forward than the hull does back.
func spriteCentre(rpx float64) (x, y float64) {
	return spritePad + hullHalfLength*rpx, spritePad + hullHalfWidth*rpx
}

// paintTank draws one tank pointing along +x into a new image.
func paintTank(rpx float64, clr color.RGBA, style tankStyle) *ebiten.Image {
	cx, cy := spriteCentre(rpx)
	w := int(math.Ceil(cx + barrelLength*rpx + spritePad))
	h := int(math.Ceil(2 * cy))
	img := ebiten.NewImage(w, h)

	// at maps tank-local coordinates (u forward, v left, in radii) into the image.
	at := func(u, v float64) (float32, float32) { return float32(cx + u*rpx), float32(cy - v*rpx) }
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
	tx, ty := at(0, 0)
	tr := float32(turretRadius * rpx)

	switch style {
	case solid:
		fillPath(img, &hull, shade(clr, 0.45))
		fillPath(img, &body, clr)
		fillPath(img, &nose, shade(clr, 1.35))
		fillPath(img, &barrel, shade(clr, 0.35))
		vector.FillCircle(img, tx, ty, tr, shade(clr, 0.7), true)
		vector.StrokeCircle(img, tx, ty, tr, 1, shade(clr, 0.35), true)
	case translucent:
		ghost := color.NRGBA{clr.R, clr.G, clr.B, 0x60}
		fillPath(img, &hull, ghost)
		fillPath(img, &barrel, ghost)
	case outline:
		edge := shade(clr, 1.6)
		strokePath(img, &hull, 1.5, edge)
		strokePath(img, &barrel, 1.5, edge)
	}
	return img
}

// fillPath fills p with clr, which may be translucent. Only for images prepared once: a
// path fill costs several draw calls.
func fillPath(dst *ebiten.Image, p *vector.Path, clr color.Color) {
	op := &vector.DrawPathOptions{AntiAlias: true}
	op.ColorScale.ScaleWithColor(clr)
	vector.FillPath(dst, p, nil, op)
}

// strokePath strokes p, width pixels wide, with clr. Only for images prepared once.
func strokePath(dst *ebiten.Image, p *vector.Path, width float32, clr color.Color) {
	op := &vector.DrawPathOptions{AntiAlias: true}
	op.ColorScale.ScaleWithColor(clr)
	vector.StrokePath(dst, p, &vector.StrokeOptions{Width: width, LineJoin: vector.LineJoinRound}, op)
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
