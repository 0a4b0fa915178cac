package render

import (
	"image"
	"image/color"
	"math"
	"slices"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
)

// textOp is one piece of text in a textLayer: s in face and clr, its top-left at (x, y) in
// the layer's screen coordinates.
type textOp struct {
	s    string
	face *text.GoTextFace
	x, y float64
	clr  color.RGBA
}

// textLayer is a block of text (the HUD, the help) on its background, kept as one image:
// each frame its text is listed again, and only when something differs from the last frame
// is it shaped and drawn anew. Otherwise the frame costs one image draw. The zero value is
// ready.
type textLayer struct {
	rect, prevRect pixelRect // the screen area the image covers, this frame and when painted
	fill, prevFill color.RGBA
	ops, prev      []textOp
	img            *ebiten.Image
}

// pixelRect is a screen rectangle in whole pixels.
type pixelRect struct{ x, y, w, h int }

// begin starts a frame's text for the area (x, y, w, h) of the screen, filled with fill
// (which may be transparent) behind the text.
func (t *textLayer) begin(x, y, w, h float64, fill color.RGBA) {
	t.rect = pixelRect{int(math.Floor(x)), int(math.Floor(y)), int(math.Ceil(w)), int(math.Ceil(h))}
	t.fill = fill
	t.ops = t.ops[:0]
}

// add writes s with its top-left corner at (x, y) on the screen.
func (t *textLayer) add(s string, face *text.GoTextFace, x, y float64, clr color.RGBA) {
	t.ops = append(t.ops, textOp{s, face, x, y, clr})
}

// update redraws the layer's image when its text, place or fill changed since it was last
// painted, and reports whether it did.
func (t *textLayer) update() bool {
	r := t.rect
	if r.w <= 0 || r.h <= 0 {
		return false
	}
	if t.img == nil || t.img.Bounds().Dx() != r.w || t.img.Bounds().Dy() != r.h {
		if t.img != nil {
			t.img.Deallocate()
		}
		t.img = ebiten.NewImage(r.w, r.h)
		t.prevRect = pixelRect{} // never equal to r: paint the new image
	}
	if r != t.prevRect || t.fill != t.prevFill || !slices.Equal(t.ops, t.prev) {
		t.img.Fill(t.fill)
		for _, o := range t.ops {
			op := &text.DrawOptions{}
			op.GeoM.Translate(math.Round(o.x)-float64(r.x), math.Round(o.y)-float64(r.y))
			op.ColorScale.ScaleWithColor(o.clr)
			text.Draw(t.img, o.s, o.face, op)
		}
		t.prevRect, t.prevFill = r, t.fill
		t.ops, t.prev = t.prev, t.ops // keep what was painted; reuse the other slice next frame
		return true
	}
	return false
}

// draw draws the layer's image onto dst, where begin placed it.
func (t *textLayer) draw(dst *ebiten.Image) {
	if t.img == nil || t.rect.w <= 0 || t.rect.h <= 0 {
		return
	}
	op := &ebiten.DrawImageOptions{}
	op.GeoM.Translate(float64(t.rect.x), float64(t.rect.y))
	dst.DrawImage(t.img, op)
}

// bounds returns the screen rectangle the layer covers.
func (t *textLayer) bounds() image.Rectangle {
	r := t.rect
	return image.Rect(r.x, r.y, r.x+r.w, r.y+r.h)
}
