package render

import (
	"image"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
)

// whitePixel is a 1x1 white source for untextured shapes, cut from the middle of a 3x3
// image so linear filtering never samples a transparent edge.
var whitePixel = func() *ebiten.Image {
	img := ebiten.NewImage(3, 3)
	img.Fill(color.White)
	return img.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image)
}()

// maxBatchVertices keeps a batch's indices within uint16.
const maxBatchVertices = math.MaxUint16 - 4

// lineBatch collects line segments as quads and draws them all in one call: a graph of
// hundreds of segments costs one draw, where a vector path would cost several per stroke.
// The zero value is ready; its buffers are reused from frame to frame.
type lineBatch struct {
	vs []ebiten.Vertex
	is []uint16
}

// segment adds a line from (x0, y0) to (x1, y1), width pixels wide, in clr.
func (b *lineBatch) segment(x0, y0, x1, y1, width float64, clr color.RGBA) {
	dx, dy := x1-x0, y1-y0
	n := math.Hypot(dx, dy)
	if n == 0 {
		return
	}
	// Half the width across the segment.
	px, py := -dy/n*width/2, dx/n*width/2
	b.quad([4][2]float64{{x0 + px, y0 + py}, {x1 + px, y1 + py}, {x1 - px, y1 - py}, {x0 - px, y0 - py}}, clr)
}

// rect adds a filled axis-aligned rectangle.
func (b *lineBatch) rect(x, y, w, h float64, clr color.RGBA) {
	b.quad([4][2]float64{{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}}, clr)
}

func (b *lineBatch) quad(p [4][2]float64, clr color.RGBA) {
	if len(b.vs)+4 > maxBatchVertices {
		return // a frame never needs this many; dropping beats a wrapped index
	}
	r, g, bl, a := float32(clr.R)/255, float32(clr.G)/255, float32(clr.B)/255, float32(clr.A)/255
	base := uint16(len(b.vs))
	for _, q := range p {
		b.vs = append(b.vs, ebiten.Vertex{DstX: float32(q[0]), DstY: float32(q[1]), SrcX: 1.5, SrcY: 1.5,
			ColorR: r, ColorG: g, ColorB: bl, ColorA: a})
	}
	b.is = append(b.is, base, base+1, base+2, base, base+2, base+3)
}

// flush draws everything added since the last flush onto dst and empties the batch.
func (b *lineBatch) flush(dst *ebiten.Image) {
	if len(b.is) > 0 {
		dst.DrawTriangles(b.vs, b.is, whitePixel, &ebiten.DrawTrianglesOptions{})
	}
	b.vs, b.is = b.vs[:0], b.is[:0]
}
