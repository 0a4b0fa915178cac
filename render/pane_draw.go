package render

import (
	"github.com/hajimehoshi/ebiten/v2"

	"tanknet/render/view"
)

// drawClientPane draws one client: its title (demo), arena contents, strip, HUD and banners.
func (g *window) drawClientPane(dst *ebiten.Image, p *clientPane, l view.Pane, full bool) {
	if l.Title.W > 0 {
		g.drawTitle(dst, &p.titleText, l.Title, g.fitTitle(l.Title.W, p.title(), p.midTitle(), p.shortTitle(), p.role), full)
	}
	if l.Frame.Follows {
		g.drawFollowed(dst, p, l.Frame)
	} else {
		g.drawTanks(dst, p, l.Frame)
		g.drawCombat(dst, p, l.Frame)
	}
	if l.Strip.W > 0 {
		g.drawStrip(dst, p, l.Strip)
	}
	if g.showHUD {
		g.drawHUD(dst, p, l.Frame, full)
	}
	g.drawBanners(dst, p, l.Frame)
	g.drawCombatBanners(dst, p, l.Frame)
}

// fitTitle returns the first of titles that fits w pixels in the title font, or the last.
func (g *window) fitTitle(w float64, titles ...string) string {
	for _, t := range titles {
		if float64(len([]rune(t)))*g.fonts.monoAdvance <= w {
			return t
		}
	}
	return titles[len(titles)-1]
}

// drawTitle draws a pane title in r through t, when the frame is drawn whole or it changed.
func (g *window) drawTitle(dst *ebiten.Image, t *textLayer, r view.Rect, s string, full bool) {
	t.begin(r.X, r.Y, r.W, r.H, view.Background)
	t.add(s, g.fonts.mono, r.X, r.Y+2, view.RTTLine)
	if t.update() || full {
		t.draw(dst)
	}
}
