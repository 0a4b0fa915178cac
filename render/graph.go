package render

import (
	"fmt"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"tanknet/render/view"
)

// Graph scale floors: the top edge never shrinks below these, so quiet traces stay flat
// instead of magnifying noise.
const (
	rttFloorMS     = 100 // a LAN's round trip sits near the bottom
	correctionUnit = 0.5 // a quarter of the snap distance
)

func rttMS(s view.Sample) float64      { return float64(s.RTT.Microseconds()) / 1000 }
func correction(s view.Sample) float64 { return s.Correction }

// drawGraph draws the last view.GraphWindow of round trips and correction sizes in r, each
// against its own scale, with a two-line legend above it.
func (g *Game) drawGraph(dst *ebiten.Image, r view.Rect) {
	h := &g.history
	rttTop := view.NiceCeil(h.Max(rttMS), rttFloorMS)
	corrTop := view.NiceCeil(h.Max(correction), correctionUnit)
	var rtt, corr float64
	if s := h.Samples(); len(s) > 0 {
		rtt, corr = rttMS(s[len(s)-1]), correction(s[len(s)-1])
	}
	drawText(dst, fmt.Sprintf("RTT %.0f ms  (top %g ms)", rtt, rttTop), g.fonts.mono, r.X, r.Y-2*lineHeight, view.RTTLine)
	drawText(dst, fmt.Sprintf("correction %.3f u  (top %g u)", corr, corrTop), g.fonts.mono, r.X, r.Y-lineHeight, view.ErrorLine)

	vector.FillRect(dst, float32(r.X), float32(r.Y), float32(r.W), float32(r.H), color.RGBA{0x10, 0x12, 0x18, 0xff}, false)
	for i := 1; i < 4; i++ { // quarter lines
		y := float32(r.Y + r.H*float64(i)/4)
		vector.StrokeLine(dst, float32(r.X), y, float32(r.X+r.W), y, 1, color.RGBA{0x2a, 0x2e, 0x38, 0xff}, false)
	}
	g.plot(dst, r, rttTop, rttMS, view.RTTLine)
	g.plot(dst, r, corrTop, correction, view.ErrorLine)
	vector.StrokeRect(dst, float32(r.X), float32(r.Y), float32(r.W), float32(r.H), 1, view.DimText, false)
}

// plot strokes one series of the history in r, scaled so top is r's top edge.
func (g *Game) plot(dst *ebiten.Image, r view.Rect, top float64, value func(view.Sample) float64, clr color.Color) {
	pts := g.history.Plot(g.scratch[:0], g.game.Now(), r.W, r.H, top, value)
	g.scratch = pts
	if len(pts) < 2 {
		return
	}
	var p vector.Path
	p.MoveTo(float32(r.X+pts[0].X), float32(r.Y+pts[0].Y))
	for _, q := range pts[1:] {
		p.LineTo(float32(r.X+q.X), float32(r.Y+q.Y))
	}
	strokePath(dst, &p, 1.5, clr)
}
