package render

import (
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
)

// textKeepFrames is how many frames an unused text image survives: long enough that a tag
// blinking out for a frame (a tank between snapshots) is not redrawn, short enough that names
// of players who left do not pile up.
const textKeepFrames = 120

// plateAlpha is the opacity of the dark plate behind a name tag, so it reads over the arena,
// the walls and other tanks alike.
const plateAlpha = 0xa0

// textPad is the air around text on its plate, in pixels.
const textPad = 2

// textKey names one prepared text image.
type textKey struct {
	s     string
	face  *text.GoTextFace
	clr   color.RGBA
	plate bool
}

type textEntry struct {
	img      *ebiten.Image
	lastUsed int // frame number
}

// textCache holds text prepared as images: text that does not change between frames (name
// tags, pane titles) is shaped and rasterised once, then drawn as one image each frame.
type textCache struct {
	frame   int
	entries map[textKey]*textEntry
}

// image returns s in face and clr as an image, with a dark plate behind it when plate is set.
func (c *textCache) image(s string, face *text.GoTextFace, clr color.RGBA, plate bool) *ebiten.Image {
	if c.entries == nil {
		c.entries = map[textKey]*textEntry{}
	}
	k := textKey{s, face, clr, plate}
	e := c.entries[k]
	if e == nil {
		e = &textEntry{img: paintText(s, face, clr, plate)}
		c.entries[k] = e
	}
	e.lastUsed = c.frame
	return e.img
}

// endFrame forgets the images no frame has used for textKeepFrames.
func (c *textCache) endFrame() {
	c.frame++
	for k, e := range c.entries {
		if c.frame-e.lastUsed > textKeepFrames {
			e.img.Deallocate()
			delete(c.entries, k)
		}
	}
}

// paintText draws s into a new image just large enough for it, padded by textPad.
func paintText(s string, face *text.GoTextFace, clr color.RGBA, plate bool) *ebiten.Image {
	m := face.Metrics()
	w := int(math.Ceil(text.Advance(s, face))) + 2*textPad
	h := int(math.Ceil(m.HAscent+m.HDescent)) + 2*textPad
	img := ebiten.NewImage(max(w, 1), max(h, 1))
	if plate {
		vector.FillRect(img, 0, 0, float32(w), float32(h), color.NRGBA{0, 0, 0, plateAlpha}, false)
	}
	op := &text.DrawOptions{}
	op.GeoM.Translate(textPad, textPad)
	op.ColorScale.ScaleWithColor(clr)
	text.Draw(img, s, face, op)
	return img
}

// drawImageAt draws img with its top-left corner at (x, y), on whole pixels so text stays
// sharp.
func drawImageAt(dst, img *ebiten.Image, x, y float64) {
	op := &ebiten.DrawImageOptions{}
	op.GeoM.Translate(math.Round(x), math.Round(y))
	dst.DrawImage(img, op)
}

// drawDamaging draws img at (x, y) like drawImageAt and records the place as damage, for
// the next frame to repair.
func (g *window) drawDamaging(dst, img *ebiten.Image, x, y float64) {
	drawImageAt(dst, img, x, y)
	b := img.Bounds()
	g.damage.add(math.Round(x), math.Round(y), float64(b.Dx()), float64(b.Dy()))
}
