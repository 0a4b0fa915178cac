package render

import (
	"fmt"
	"image/color"
	"slices"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"tanknet/render/view"
)

// drawBanners draws what sits over a client pane's arena every frame: the switches that are
// off (every key's, so they show with the HUD hidden too), and where to find the keys when
// the HUD is hidden.
func (g *window) drawBanners(dst *ebiten.Image, p *clientPane, f view.Frame) {
	a := f.Arena
	if s := view.OffBanner(p.tech, p.lagComp, p.game.InputOnArrival() && !p.recorded); s != "" {
		img := g.text.image(s, g.fonts.mono, view.WarnText, true)
		g.drawDamaging(dst, img, a.X+a.W/2-float64(img.Bounds().Dx())/2, a.Y+8)
	}
	if !g.showHUD {
		g.drawDamaging(dst, g.text.image("F1 help  H HUD", g.fonts.mono, view.DimText, true), a.X+8, a.Y+a.H-lineHeight-4)
	}
}

// drawOverlays draws what sits over everything: a pane's waiting message, the failure and
// the help.
func (g *window) drawOverlays(dst *ebiten.Image) {
	g.waitShown = false
	for i, p := range g.panes {
		if p.game.Local() == nil && g.failure == nil {
			g.waitShown = true
			g.messageBox(dst, g.layout[g.mode.paneIndex(i)].Frame.Arena, "Joined — waiting for the first snapshot", nil, view.TextColor)
		}
	}
	win := view.Rect{W: float64(dst.Bounds().Dx()), H: float64(dst.Bounds().Dy())}
	if g.failure != nil {
		vector.FillRect(dst, 0, 0, float32(win.W), float32(win.H), color.NRGBA{0, 0, 0, 0xa0}, false)
		left := failureLinger - time.Since(g.failAt)
		after := fmt.Sprintf("closing in %.0f s (Esc quits now)", max(0, left.Seconds()))
		if g.fromLobby {
			after = fmt.Sprintf("back to the lobby in %.0f s (Esc: now)", max(0, left.Seconds()))
		}
		lines := []string{wrap(g.failure.Error(), 70), after}
		g.messageBox(dst, win, "Connection lost", lines, view.ErrorText)
	}
	if g.expandHUD && g.failure == nil {
		for i, p := range g.panes {
			g.drawWholeHUD(dst, p, g.mode.expandArea(g, i, win))
		}
	}
	if g.showScores && len(g.panes) > 0 && g.failure == nil {
		g.drawScoreboard(dst, g.panes[0], g.layout[g.mode.paneIndex(0)].Frame.Arena)
	}
	if g.showHelp {
		g.drawHelp(dst, win)
	}
}

// drawWholeHUD draws every line of p's HUD in a box over area (E), wrapped to its width; only
// a window too small for even that hides lines, and says how many.
func (g *window) drawWholeHUD(dst *ebiten.Image, p *clientPane, area view.Rect) {
	box := view.Rect{X: area.X + padding, Y: area.Y + padding, W: area.W - 2*padding, H: area.H - 2*padding}
	if box.W <= 4*padding || box.H <= 2*padding {
		return
	}
	lines := append(slices.Clip(p.hudLines), view.Line{Text: "E: back to the panel", Style: view.Dim})
	lines = view.FitPanel(lines, g.columns(box.W), int((box.H-2*padding)/lineHeight))
	t := &p.allText
	t.begin(box.X, box.Y, box.W, box.H, view.BoxFill)
	y := box.Y + padding
	for _, l := range lines {
		x := box.X + padding
		if l.Style != view.Heading {
			x += 8
		}
		t.add(l.Text, g.fonts.mono, x, y, styleColor(l.Style))
		y += lineHeight
	}
	t.update()
	t.draw(dst)
}

// messageBox draws a title and lines centred on r in a dark box.
func (g *window) messageBox(dst *ebiten.Image, r view.Rect, title string, lines []string, clr color.Color) {
	cx, cy := r.X+r.W/2, r.Y+r.H/2
	w := text.Advance(title, g.fonts.title)
	n := 0
	for _, l := range lines {
		for _, s := range strings.Split(l, "\n") {
			w = max(w, text.Advance(s, g.fonts.mono))
			n++
		}
	}
	h := titleSize + 10 + float64(n*lineHeight)
	x, y := cx-w/2-20, cy-h/2-16
	vector.FillRect(dst, float32(x), float32(y), float32(w+40), float32(h+32), view.BoxFill, false)
	vector.StrokeRect(dst, float32(x), float32(y), float32(w+40), float32(h+32), 1, clr, false)
	drawCentred(dst, title, g.fonts.title, cx, y+14, clr)
	ly := y + 16 + titleSize + 10
	for _, l := range lines {
		for _, s := range strings.Split(l, "\n") {
			drawCentred(dst, s, g.fonts.mono, cx, ly, view.TextColor)
			ly += lineHeight
		}
	}
}

// drawHelp draws the key help in a box over the centre of r, kept inside the window.
func (g *window) drawHelp(dst *ebiten.Image, r view.Rect) {
	lines := view.FitHelp(g.mode.help(), int((r.H-3*padding)/(lineHeight+1)))
	w := 0.0
	for _, l := range lines {
		w = max(w, text.Advance(l.Text, g.fonts.mono))
	}
	h := float64(len(lines)*lineHeight + 3*len(lines)/6)
	x, y := max(0, r.X+r.W/2-w/2-padding*2), max(0, r.Y+r.H/2-h/2-padding)
	bw, bh := w+4*padding, h+3*padding
	t := &g.helpText
	t.begin(x, y, bw, bh, view.BoxFill)
	ly := y + padding
	for _, l := range lines {
		if l.Style == view.Heading && ly > y+padding {
			ly += 6
		}
		t.add(l.Text, g.fonts.mono, x+2*padding, ly, styleColor(l.Style))
		ly += lineHeight
	}
	t.update()
	t.draw(dst)
}

// drawCentred writes s centred horizontally on cx, its top at y.
func drawCentred(dst *ebiten.Image, s string, face text.Face, cx, y float64, clr color.Color) {
	op := &text.DrawOptions{}
	op.GeoM.Translate(cx, y)
	op.PrimaryAlign = text.AlignCenter
	op.ColorScale.ScaleWithColor(clr)
	text.Draw(dst, s, face, op)
}

// wrap breaks s into lines of at most width characters at spaces.
func wrap(s string, width int) string {
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(s) {
		if i > 0 && n+1+len(w) > width {
			b.WriteByte('\n')
			n = 0
		} else if i > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String()
}
