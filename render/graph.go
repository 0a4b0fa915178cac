package render

import (
	"fmt"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"

	"tanknet/render/view"
)

// Graph scale floors: the top edge never shrinks below these, so quiet traces stay flat
// instead of magnifying noise.
const (
	rttFloorMS     = 100 // a LAN's round trip sits near the bottom
	correctionUnit = 0.5 // a quarter of the snap distance
)

// graphFill and graphGrid are the graph's background and quarter lines.
var (
	graphFill = color.RGBA{0x10, 0x12, 0x18, 0xff}
	graphGrid = color.RGBA{0x2a, 0x2e, 0x38, 0xff}
)

func rttMS(s view.Sample) float64      { return float64(s.RTT.Microseconds()) / 1000 }
func correction(s view.Sample) float64 { return s.Correction }

// graphLegend is the graph's two-line legend and the value at the top edge of each trace's
// scale, read from a pane's history with the rest of the HUD.
type graphLegend struct {
	rtt, corr       string
	rttTop, corrTop float64
}

// readLegend reads p's legend from its history.
func readLegend(p *clientPane) graphLegend {
	h := &p.history
	l := graphLegend{rttTop: view.NiceCeil(h.Max(rttMS), rttFloorMS), corrTop: view.NiceCeil(h.Max(correction), correctionUnit)}
	var rtt, corr float64
	if s := h.Samples(); len(s) > 0 {
		rtt, corr = rttMS(s[len(s)-1]), correction(s[len(s)-1])
	}
	l.rtt = fmt.Sprintf("RTT %.0f ms (top %g)", rtt, l.rttTop)
	l.corr = fmt.Sprintf("correction %.3f u (top %g)", corr, l.corrTop)
	return l
}

// add writes the legend above r into t.
func (l *graphLegend) add(g *window, t *textLayer, r view.Rect) {
	t.add(l.rtt, g.fonts.mono, r.X, r.Y-2*lineHeight, view.RTTLine)
	t.add(l.corr, g.fonts.mono, r.X, r.Y-lineHeight, view.ErrorLine)
}

// drawGraph draws the last view.GraphWindow of round trips and correction sizes in r, each
// against its own scale (the value at r's top edge). The box, grid and both traces go out as
// one batch of quads.
func (g *window) drawGraph(dst *ebiten.Image, p *clientPane, r view.Rect, rttTop, corrTop float64) {
	b := &g.batch
	b.rect(r.X, r.Y, r.W, r.H, graphFill)
	for i := 1; i < 4; i++ { // quarter lines
		y := r.Y + r.H*float64(i)/4
		b.rect(r.X, y, r.W, 1, graphGrid)
	}
	g.plot(p, r, rttTop, rttMS, view.RTTLine)
	g.plot(p, r, corrTop, correction, view.ErrorLine)
	strokeRect(b, r, 1, view.DimText)
	b.flush(dst)
}

// plot adds one series of the history in r to the batch, scaled so top is r's top edge.
func (g *window) plot(p *clientPane, r view.Rect, top float64, value func(view.Sample) float64, clr color.RGBA) {
	pts := p.history.Plot(p.scratch[:0], p.game.Now(), r.W, r.H, top, value)
	p.scratch = pts
	for i := 1; i < len(pts); i++ {
		g.batch.segment(r.X+pts[i-1].X, r.Y+pts[i-1].Y, r.X+pts[i].X, r.Y+pts[i].Y, 1.5, clr)
	}
}

// strokeRect adds r's outline, width pixels wide, inside r.
func strokeRect(b *lineBatch, r view.Rect, width float64, clr color.RGBA) {
	b.rect(r.X, r.Y, r.W, width, clr)
	b.rect(r.X, r.Y+r.H-width, r.W, width, clr)
	b.rect(r.X, r.Y, width, r.H, clr)
	b.rect(r.X+r.W-width, r.Y, width, r.H, clr)
}
