package render

import (
	"github.com/hajimehoshi/ebiten/v2"

	"tanknet/render/view"
)

// Timeline strip drawing, in pixels.
const (
	stripLabelW = 78 // the row names' column on the left
	lineMarkW   = 2  // a mark at a point (cursor, hold, correction) is a line this wide
)

// drawStrip draws a client pane's timeline strip in r: view.TimelineMarks decides every
// mark; this only turns fractions of the width into pixels and kinds into colours, all in
// one batch.
func (g *window) drawStrip(dst *ebiten.Image, p *clientPane, r view.Rect) {
	p.marks = view.TimelineMarks(*p.timeline(), p.marks)
	b := &g.batch
	b.rect(r.X, r.Y, r.W, r.H, view.StripFill)
	rowH := r.H / view.TimelineRows
	area := view.Rect{X: r.X + stripLabelW, Y: r.Y, W: r.W - stripLabelW - 4, H: r.H}
	for i := 1; i < view.TimelineRows; i++ {
		b.rect(r.X, r.Y+float64(i)*rowH, r.W, 1, view.StripDivide)
	}
	for _, m := range p.marks {
		y := r.Y + float64(m.Row)*rowH
		x0, x1 := area.X+m.X0*area.W, area.X+m.X1*area.W
		clr := view.MarkColor(m.Kind)
		switch m.Kind {
		case view.MarkBracket: // a bar along the row's middle, under the cursor
			b.rect(x0, y+rowH/2-2, x1-x0, 4, clr)
		case view.MarkCursor, view.MarkHeldCursor, view.MarkCorrection, view.MarkSnap: // full height
			b.rect(x0-lineMarkW/2, y+2, lineMarkW, rowH-4, clr)
		case view.MarkHold: // a short tick at the top
			b.rect(x0-lineMarkW/2, y+2, lineMarkW, rowH/3, clr)
		case view.MarkPush: // a short tick at the bottom, under the slot's centre
			b.rect(x0-lineMarkW, y+rowH*2/3-2, 2*lineMarkW, rowH/3, clr)
		default: // a slot: a block
			b.rect(x0, y+5, x1-x0, rowH-10, clr)
		}
	}
	b.flush(dst)

	remote := "remote"
	if rm := p.selectedRemote(); rm != nil {
		remote = rm.Name
	}
	for i, name := range [view.TimelineRows]string{"snapshots", clip(remote, 9), "your inputs"} {
		img := g.text.image(name, g.fonts.small, view.DimText, false)
		drawImageAt(dst, img, r.X+3, r.Y+float64(i)*rowH+(rowH-float64(img.Bounds().Dy()))/2)
	}
}

// clip shortens s to at most n characters, marking the cut.
func clip(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return string(rs[:n-1]) + "…"
}
