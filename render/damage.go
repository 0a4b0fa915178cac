package render

import (
	"image"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
)

// damage tracks where a frame drew moving things (tanks, ghosts, name tags, banners), so the
// next frame repairs only those places from the backdrop instead of repainting the whole
// window. Under a software renderer a frame costs roughly the pixels it touches, and the
// tanks cover a few percent of the window. The zero value is ready.
type damage struct {
	prev, now []image.Rectangle
}

// add records that this frame draws over the screen rectangle (x, y, w, h), rounded outwards
// and grown by a pixel for anti-aliased and linearly filtered edges.
func (d *damage) add(x, y, w, h float64) {
	d.now = append(d.now, image.Rect(int(math.Floor(x))-1, int(math.Floor(y))-1, int(math.Ceil(x+w))+1, int(math.Ceil(y+h))+1))
}

// repair copies the backdrop over everything the previous frame recorded.
func (d *damage) repair(dst, backdrop *ebiten.Image) {
	for _, r := range d.prev {
		repairRect(dst, backdrop, r)
	}
}

// repairRect copies the backdrop over r.
func repairRect(dst, backdrop *ebiten.Image, r image.Rectangle) {
	r = r.Intersect(backdrop.Bounds())
	if r.Empty() {
		return
	}
	op := &ebiten.DrawImageOptions{Blend: ebiten.BlendCopy}
	op.GeoM.Translate(float64(r.Min.X), float64(r.Min.Y))
	dst.DrawImage(backdrop.SubImage(r).(*ebiten.Image), op)
}

// endFrame makes this frame's rectangles the ones the next frame repairs.
func (d *damage) endFrame() {
	d.prev, d.now = d.now, d.prev[:0]
}
