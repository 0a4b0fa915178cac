package render

import (
	"fmt"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"

	"tanknet/client"
	"tanknet/netcode"
	"tanknet/render/view"
	"tanknet/wire"
)

// Sizes of combat marks, in world units (scaled with the arena) or pixels.
const (
	tracerWidthPx = 2.5  // thick enough to see at a glance, thin beside a tank
	flashRadius   = 0.35 // the muzzle flash, world units
	markerSize    = 0.4  // half the hit marker's X, world units
	barHeightPx   = 4
)

// drawCombat draws what shooting shows over the tanks: health bars, tracers with their
// muzzle flashes, the marker where our last shell stopped and, with ghosts on, the target
// as we drew it and as the server judged it. Everything goes through one line batch, and
// every mark is recorded as damage so the next frame repairs it.
func (g *window) drawCombat(dst *ebiten.Image, p *clientPane, f view.Frame) {
	if f.Scale <= 0 {
		return
	}
	a := &g.arena
	m := view.LastShotMarks(p.game, p.game.Now())
	if m.Show && g.showGhosts {
		if m.SawHit {
			g.drawSprite(dst, f, a, m.Aimed, view.DimText, translucent)
		}
		if m.HasGhost {
			g.drawSprite(dst, f, a, m.Rewound, view.RewoundGhost, outline)
		}
	}
	b := &g.combat
	rules := p.game.Rules()
	if l := p.game.Local(); l != nil {
		g.healthBar(b, f, a, p.tech.LocalPose(l, &p.shadow), p.game.Own(), rules)
	}
	for _, rm := range p.game.Remotes() {
		if rm.Interp.Len() > 0 {
			g.healthBar(b, f, a, p.tech.RemotePose(rm), rm.Combat, rules)
		}
	}
	now := p.game.Now()
	for _, t := range p.game.Tracers(now) {
		age := now - t.At
		alpha := view.TracerAlpha(age, client.TracerLife())
		x0, y0 := f.ToScreen(t.FromX, t.FromY)
		x1, y1 := f.ToScreen(t.ToX, t.ToY)
		g.segment(b, x0, y0, x1, y1, tracerWidthPx, fade(view.TracerColor, alpha))
		if age < view.FlashTime {
			r := flashRadius * f.Scale
			g.segment(b, x0-r, y0, x0+r, y0, r/3, view.FlashColor)
			g.segment(b, x0, y0-r, x0, y0+r, r/3, view.FlashColor)
		}
	}
	if m.Show && m.Answered {
		clr := view.MissMark
		if m.Confirmed {
			clr = view.HitMark
		}
		x, y := f.ToScreen(m.EndX, m.EndY)
		s := markerSize * f.Scale
		g.segment(b, x-s, y-s, x+s, y+s, 3, clr)
		g.segment(b, x-s, y+s, x+s, y-s, 3, clr)
	}
	b.flush(dst)
}

// healthBar adds a bar above a live tank at p showing its health.
func (g *window) healthBar(b *lineBatch, f view.Frame, a *netcode.Arena, p netcode.Pose, c wire.Combat, rules netcode.Rules) {
	share, clr, ok := view.HealthBar(c, rules)
	if !ok {
		return
	}
	x, y := f.ToScreen(p.X, p.Y)
	w := 2 * a.TankRadius * f.Scale
	x, y = x-w/2, y-a.TankRadius*hullHalfLength*f.Scale-barHeightPx-3
	b.rect(x, y, w, barHeightPx, view.HealthBack)
	b.rect(x, y, w*share, barHeightPx, clr)
	if c.SpawnProtected {
		b.rect(x, y-2, w, 1, view.RewoundGhost)
	}
	g.damage.add(x, y-2, w, barHeightPx+2)
}

// segment adds a line to b and records its bounding box as damage.
func (g *window) segment(b *lineBatch, x0, y0, x1, y1, width float64, clr color.RGBA) {
	b.segment(x0, y0, x1, y1, width, clr)
	h := width / 2
	g.damage.add(math.Min(x0, x1)-h, math.Min(y0, y1)-h, math.Abs(x1-x0)+width, math.Abs(y1-y0)+width)
}

// fade scales clr's opacity by alpha (premultiplied, as Ebitengine's vertices are).
func fade(clr color.RGBA, alpha float64) color.RGBA {
	k := max(0, min(1, alpha))
	return color.RGBA{uint8(float64(clr.R) * k), uint8(float64(clr.G) * k), uint8(float64(clr.B) * k), uint8(float64(clr.A) * k)}
}

// drawCombatBanners draws the banner of a client pane whose tank is destroyed, and for a
// moment after it comes back marks the respawn: the server placed the tank anew, so the jump
// to it is not a correction snapping (the strip leaves that snap out).
func (g *window) drawCombatBanners(dst *ebiten.Image, p *clientPane, f view.Frame) {
	l := p.game.Local()
	switch {
	case l != nil && p.game.Own().Destroyed:
		s := fmt.Sprintf("DESTROYED  respawn in %.1f s", view.RespawnIn(p.game).Seconds())
		img := g.text.image(s, g.fonts.mono, view.ErrorText, true)
		g.drawDamaging(dst, img, f.Arena.X+f.Arena.W/2-float64(img.Bounds().Dx())/2, f.Arena.Y+32)
	case l != nil && p.events.respawns > 0 && p.game.Now()-p.events.respawnedAt < respawnBanner:
		img := g.text.image("RESPAWNED (placed: not a snap)", g.fonts.mono, view.RewoundGhost, true)
		g.drawDamaging(dst, img, f.Arena.X+f.Arena.W/2-float64(img.Bounds().Dx())/2, f.Arena.Y+32)
		at := p.tech.LocalPose(l, &p.shadow)
		x, y := f.ToScreen(at.X, at.Y)
		r := 2 * g.arena.TankRadius * f.Scale
		for _, s := range [][4]float64{{x - r, y - r, x + r, y - r}, {x + r, y - r, x + r, y + r}, {x + r, y + r, x - r, y + r}, {x - r, y + r, x - r, y - r}} {
			g.segment(&g.combat, s[0], s[1], s[2], s[3], 2, view.RewoundGhost)
		}
		g.combat.flush(dst)
	}
}

// drawScoreboard draws the scoreboard as p's client knows it, centred on r.
func (g *window) drawScoreboard(dst *ebiten.Image, p *clientPane, r view.Rect) {
	var lines []string
	for _, l := range view.ScoreLines(view.Scoreboard(p.game)) {
		lines = append(lines, l.Text)
	}
	g.messageBox(dst, r, "Scoreboard", lines, view.TextColor)
}
