package render

import (
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"tanknet/render/view"
	"tanknet/transport"
)

// HUD text metrics, in pixels.
const (
	lineHeight = 17 // hudSize plus leading
	padding    = 10 // inside the panel
	sectionGap = 3  // air above each section heading
)

// drawHUD fills the panel with the HUD text and the live graph below it. The text goes
// through a textLayer, so it is drawn anew only in frames where a number in it changed; in a
// frame that is not drawn whole (full false) the panel is not touched at all otherwise.
func (g *Game) drawHUD(dst *ebiten.Image, f view.Frame, full bool) {
	lines := view.HUD(g.game, g.tech, g.netLines())
	if g.netErr != nil {
		lines = append(lines, view.Line{Text: g.netErr.Error(), Style: view.Warn})
	}
	lines = append(lines, view.Line{Text: "F1 help", Style: view.Dim})
	graphH := float64(view.GraphHeight + 2*lineHeight)
	p := f.Panel
	headings := 0
	for _, l := range lines {
		if l.Style == view.Heading {
			headings++
		}
	}
	p.H = min(p.H, float64(len(lines)*lineHeight+headings*sectionGap)+graphH+3*padding)
	t := &g.hudText
	t.begin(p.X, p.Y, p.W, p.H, view.PanelFill)
	y := p.Y + padding
	for _, l := range lines {
		if y+lineHeight > p.Y+p.H-graphH-padding {
			break
		}
		x := p.X + padding
		if l.Style != view.Heading {
			x += 8
		} else {
			y += sectionGap
		}
		t.add(l.Text, g.fonts.mono, x, y, styleColor(l.Style))
		y += lineHeight
	}
	graph := view.Rect{X: p.X + padding, Y: p.Y + p.H - graphH - padding + 2*lineHeight, W: p.W - 2*padding, H: view.GraphHeight}
	rttTop, corrTop := g.graphLegend(t, graph)
	if t.update() || full {
		if !full { // the panel is translucent: put back what is under it, where it was and is
			repairRect(dst, g.backdrop.img, g.hudRect.Union(t.bounds()))
		}
		t.draw(dst)
		g.hudRect = t.bounds()
	}
	g.drawGraph(dst, graph, rttTop, corrTop)
}

// netLines describe the link conditioner for the HUD.
func (g *Game) netLines() []string {
	if g.net == nil {
		return []string{"network conditioning unavailable"}
	}
	c := g.net.Conn.Conditions()
	switch {
	case c == (transport.Conditions{}):
		return []string{"network " + g.net.Preset + ": nothing added"}
	case c.Outbound == c.Inbound:
		return []string{"network " + g.net.Preset + ", each way:", "  " + c.Outbound.String()}
	}
	return []string{"network " + g.net.Preset + ":", "  out " + c.Outbound.String(), "  in  " + c.Inbound.String()}
}

func styleColor(s view.Style) color.RGBA {
	switch s {
	case view.Heading:
		return view.RTTLine
	case view.Dim:
		return view.DimText
	case view.Warn:
		return view.WarnText
	}
	return view.TextColor
}

// drawText writes s with its top-left corner at (x, y). For text shown only now and then
// (messages); text drawn every frame goes through a textLayer or the textCache.
func drawText(dst *ebiten.Image, s string, face text.Face, x, y float64, clr color.Color) {
	op := &text.DrawOptions{}
	op.GeoM.Translate(x, y)
	op.ColorScale.ScaleWithColor(clr)
	text.Draw(dst, s, face, op)
}
