package render

import (
	"image/color"
	"slices"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"tanknet/render/view"
)

// HUD text metrics, in pixels.
const (
	lineHeight = 17 // hudSize plus leading
	padding    = 10 // inside the panel
	sectionGap = 3  // air above each section heading
	// minGraphBeside is the narrowest graph worth putting beside the HUD text in a wide,
	// short panel (the demo's) instead of under it.
	minGraphBeside = 170
	// minGraphUnder is the shortest graph worth drawing under the HUD text, when a panel has
	// room for all the text but not for a whole graph (view.GraphHeight) under it.
	minGraphUnder = 60
	// hudRefresh is how often the HUD text is read again: ten times a second is as fast as
	// anyone reads numbers, and repainting the panel at the 20 Hz snapshot rate would touch
	// twice the pixels for nothing.
	hudRefresh = 100 * time.Millisecond
)

// drawHUD fills a pane's panel with the HUD text and the live graph. In a tall panel the
// graph goes under the text; in a wide, short one (the demo's) beside it, and the text drops
// its secondary lines first when it does not fit. The text goes through a textLayer, so it is
// drawn anew only in frames where a number in it changed; in a frame not drawn whole (full
// false) the panel is not touched otherwise.
func (g *window) drawHUD(dst *ebiten.Image, p *clientPane, f view.Frame, full bool) {
	if f.Panel.W <= 0 || f.Panel.H <= 0 {
		return
	}
	refresh := full || time.Since(p.hudAt) >= hudRefresh
	if refresh {
		p.hudAt = time.Now()
		p.hudLines = append(view.TechniqueLines(p.tech, p.lagComp), view.ContactLines(p.game.Rules().Contact, p.contactCount(), p.contactKey)...)
		p.hudLines = append(append(p.hudLines, view.CombatLines(p.game, p.lagComp)...), view.HUD(p.game, p.tech, p.netLines())...)
		p.legend = readLegend(p)
	}
	all := g.hudLinesOf(p)
	l := g.layoutHUD(f.Panel, all)
	panel := l.panel

	p.hudLinesAll = len(view.FitPanel(all, g.columns(l.textW), 1<<20))
	p.hudHidden = p.hudLinesAll - len(l.lines)
	if p.hudHidden > 0 {
		p.hudHidden++ // the count replaced a line
	}

	// Beside or under the arena the panel covers only the backdrop's plain background, so
	// it is opaque and needs no repair under it; over the arena it lets the tanks show.
	fill, over := view.PanelSolid, f.PanelOverArena()
	if over {
		fill = view.PanelFill
	}
	t := &p.hudText
	t.begin(panel.X, panel.Y, panel.W, panel.H, fill)
	textBottom := panel.Y + panel.H - padding
	if !l.beside {
		textBottom -= l.graphH
	}
	g.addHUDText(t, l.lines, panel, textBottom)
	if l.graph.H > 0 {
		p.legend.add(g, t, l.graph)
	}
	repainted := t.update() || full
	if repainted {
		if !full { // put back what is under the panel where it was and is: it may have shrunk
			repairRect(dst, g.backdrop.img, p.hudRect.Union(t.bounds()))
		}
		t.draw(dst)
		p.hudRect = t.bounds()
	}
	// The graph is opaque and nothing else draws over it, so between HUD refreshes it stays
	// on screen as it was; it is drawn again with the text, or over a repainted panel.
	if graph := l.graph; graph.H > 10 && graph.W > 10 && (refresh || repainted) {
		g.drawGraph(dst, p, graph, p.legend.rttTop, p.legend.corrTop)
	}
}

// hudLinesOf is every line of p's HUD this frame: the tour's (unless the mode shows them
// elsewhere), the lines read at the last refresh, the pane's and the window's errors, and
// the help key.
func (g *window) hudLinesOf(p *clientPane) []view.Line {
	lines := p.hudLines
	if tl := g.tour.lines(g); tl != nil && !g.mode.tourLegend() { // the demo shows it in the server pane
		lines = append(slices.Clip(tl), lines...)
	}
	if p.netErr != nil {
		lines = append(lines, view.Line{Text: p.netErr.Error(), Style: view.Warn})
	}
	if g.notice != nil {
		lines = append(lines, view.Line{Text: g.notice.Error(), Style: view.Warn})
	}
	return append(lines, view.Line{Text: "F1 help", Style: view.Dim})
}

// hudLayout is where a HUD's text and graph go in its panel.
type hudLayout struct {
	panel  view.Rect   // the panel, shortened to what text and graph need when the graph is under
	lines  []view.Line // the lines that fit
	textW  float64     // the text's width
	beside bool        // the graph is beside the text, not under it
	graphH float64     // under: the height kept for the graph (0: no graph)
	graph  view.Rect   // where the graph goes (H 0: none)
}

// layoutHUD puts lines and the graph in panel: in a tall panel the graph under the text, in
// a wide, short one beside it, with the text fitted to what is left.
func (g *window) layoutHUD(panel view.Rect, lines []view.Line) hudLayout {
	l := hudLayout{panel: panel, textW: panel.W, graphH: float64(view.GraphHeight + 2*lineHeight)}
	l.beside = panel.W-PanelTextWidth >= minGraphBeside && panel.H < textHeight(lines)+l.graphH+3*padding
	if l.beside {
		l.textW = PanelTextWidth
		gh := min(float64(view.GraphHeight), panel.H-2*padding-2*lineHeight)
		l.graph = view.Rect{X: panel.X + l.textW, Y: panel.Y + padding + 2*lineHeight, W: panel.W - l.textW - padding, H: gh}
		l.lines = view.FitPanel(lines, g.columns(l.textW), int((panel.H-2*padding)/lineHeight)-1)
		return l
	}
	cols := g.columns(l.textW)
	if spare := panel.H - 3*padding - textHeight(view.FitPanel(lines, cols, 1<<20)) - 2*lineHeight; spare < view.GraphHeight {
		// Under all the text there is less room than a whole graph needs: a shorter graph
		// while it still reads, and none below that (the panel keeps its text; E shows every
		// line).
		l.graphH = 0
		if spare >= minGraphUnder {
			l.graphH = spare + 2*lineHeight
		}
	}
	l.lines = fitHeight(lines, cols, panel.H-l.graphH-3*padding)
	l.panel.H = min(panel.H, textHeight(l.lines)+l.graphH+3*padding)
	if l.graphH > 0 {
		l.graph = view.Rect{X: panel.X + padding, Y: panel.Y + l.panel.H - l.graphH - padding + 2*lineHeight, W: panel.W - 2*padding, H: l.graphH - 2*lineHeight}
	}
	return l
}

// addHUDText adds lines to t from the top of panel down, as many as end above bottom.
func (g *window) addHUDText(t *textLayer, lines []view.Line, panel view.Rect, bottom float64) {
	y := panel.Y + padding
	for _, l := range lines {
		if y+lineHeight > bottom {
			break
		}
		x := panel.X + padding
		if l.Style != view.Heading {
			x += 8
		} else {
			y += sectionGap
		}
		t.add(l.Text, g.fonts.mono, x, y, styleColor(l.Style))
		y += lineHeight
	}
}

// columns returns how many characters of HUD text fit a panel w pixels wide (Go Mono: every
// character has the same advance), after its padding and the indent of a plain line.
func (g *window) columns(w float64) int {
	return max(0, int((w-2*padding-8)/g.fonts.monoAdvance))
}

// PanelTextWidth is the HUD text's column in a wide panel under the arena, with the graph to
// its right: the longest essential HUD line (40 characters of 13 px Go Mono, 7.8 px each)
// plus the padding either side and the 8 px indent (see columns).
const PanelTextWidth = 340

// textHeight is the height lines take in the HUD.
// fitHeight is view.FitPanel for a panel h pixels high: as many rows as fit with the air
// above each heading that stays, not a heading's air reserved for every row.
func fitHeight(lines []view.Line, cols int, h float64) []view.Line {
	rows := max(int(h/lineHeight), 1) // no row can be shorter than a line
	for ; rows > 1; rows-- {
		if fit := view.FitPanel(lines, cols, rows); textHeight(fit) <= h {
			return fit
		}
	}
	return view.FitPanel(lines, cols, 1)
}

func textHeight(lines []view.Line) float64 {
	headings := 0
	for _, l := range lines {
		if l.Style == view.Heading {
			headings++
		}
	}
	return float64(len(lines)*lineHeight + headings*sectionGap)
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
