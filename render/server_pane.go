package render

import (
	"fmt"
	"image/color"
	"io"
	"slices"
	"tanknet/world"

	"github.com/hajimehoshi/ebiten/v2"

	"tanknet/netcode"
	"tanknet/render/view"
	"tanknet/wire"
)

// Truth is the server's authoritative state at one tick: what the server pane of the demo
// draws, straight from the in-process server.
type Truth struct {
	Tick  uint32
	IDs   []uint32       // players in the tick, in the server's order
	Poses []netcode.Pose // indexed like IDs
	// Combat is each tank's health and respawn, indexed like IDs; empty when the source has
	// none (the pane then draws no health bars or wrecks).
	Combat []world.TankCombat
	// Recent are the ticks since the last read, oldest first, the newest (this one)
	// included; at most the last TrailLen. The demo's tick trail follows a tank through
	// them, so a frame that came late misses no tick. Empty when the source keeps none.
	Recent []TruthTick
}

// TruthTick is one server tick's poses.
type TruthTick struct {
	Tick  uint32
	IDs   []uint32
	Poses []netcode.Pose
}

// wrecks returns how many tanks of the tick are destroyed.
func (t *Truth) wrecks() int {
	n := 0
	for _, c := range t.Combat {
		if c.Destroyed {
			n++
		}
	}
	return n
}

// serverPane is the three panes' middle one: the server's truth, read from the live
// server (the demo) or rebuilt from its recording (a recording set's replay).
type serverPane struct {
	truth func(*Truth) // reads the newest tick into its argument
	// legend is the panel's text, what the panes show and the keys, for the tick read.
	legend func(*Truth) []view.Line
	state  Truth // the tick read this frame
	title  textLayer
	hud    textLayer
}

// drawServerPane reads s's truth and draws it: every tank where the server has it this
// tick, with no prediction, interpolation or ghosts, and below it s's legend (or the tour's
// caption). Its title says the slow motion in force, or the room's contact mode.
func (g *window) drawServerPane(dst *ebiten.Image, l view.Pane, full bool, s *serverPane, slow int) {
	s.truth(&s.state)
	g.tour.followTrail(&s.state)
	g.drawServerTitle(dst, l.Title, full, s, slow)
	f := l.Frame
	if f.Scale <= 0 {
		return
	}
	g.drawTruth(dst, f, &s.state)
	g.drawTrail(&g.combat, f, l.Chart)
	g.combat.flush(dst)
	g.placeLabels(dst, f, g.labels)
	if g.showHUD && f.Panel.W > 0 {
		g.drawServerHUD(dst, f.Panel, full, s)
	}
}

// drawServerTitle draws the server pane's title in r.
func (g *window) drawServerTitle(dst *ebiten.Image, r view.Rect, full bool, s *serverPane, slow int) {
	tick := s.state.Tick
	if label := view.SlowLabel(slow); label != "" { // slow motion says so first
		g.drawTitle(dst, &s.title, r, g.fitTitle(r.W,
			fmt.Sprintf("SERVER — %s — tick %d", label, tick), "SERVER — "+label, label), full)
		return
	}
	contact := g.panes[0].game.Rules().Contact
	g.drawTitle(dst, &s.title, r, g.fitTitle(r.W,
		fmt.Sprintf("SERVER — the truth both clients chase (tick %d, contact %s)", tick, contact),
		fmt.Sprintf("SERVER — tick %d, contact %s", tick, contact),
		fmt.Sprintf("SERVER — tick %d", tick), "SERVER"), full)
}

// drawTruth draws the tanks of t in f, with their health bars, and leaves their name tags in
// g.labels for placeLabels.
func (g *window) drawTruth(dst *ebiten.Image, f view.Frame, t *Truth) {
	labels := g.labels[:0]
	rules := g.panes[0].game.Rules()
	hasCombat := len(t.Combat) == len(t.IDs)
	for i, id := range t.IDs {
		p := t.Poses[i]
		clr := view.PlayerColor(id)
		name := g.playerName(id)
		if hasCombat {
			c := t.Combat[i]
			if c.Destroyed {
				clr = view.WreckColor
				name = view.RespawnTag(name, c.RespawnTick, t.Tick)
			}
			g.healthBar(&g.combat, f, &g.arena, p, wire.Combat{Health: c.Health, Destroyed: c.Destroyed}, rules)
		}
		g.drawSprite(dst, f, &g.arena, p, clr, solid)
		labels = g.addLabel(labels, f, &g.arena, p, name, clr)
	}
	g.labels = labels
}

// trailDot is the side of a tick trail's dot, in pixels.
const trailDot = 4

// drawTrail adds the tour's tick trail to b: a dot where the server had the followed tank at
// each of its newest ticks, orange where that tick's motion was uneven, and in chart (when
// the strip row is shown) a bar per tick as tall as the distance moved in it, against a line
// at one full-speed step.
func (g *window) drawTrail(b *lineBatch, f view.Frame, chart view.Rect) {
	pts, ok := g.tour.trail()
	if !ok {
		return
	}
	for _, pt := range pts {
		x, y := f.ToScreen(pt.Pose.X, pt.Pose.Y)
		b.rect(x-trailDot/2, y-trailDot/2, trailDot, trailDot, trailColor(pt))
		g.damage.add(x-trailDot/2, y-trailDot/2, trailDot, trailDot)
	}
	if chart.W <= 0 || chart.H <= 0 {
		return
	}
	b.rect(chart.X, chart.Y, chart.W, chart.H, view.StripFill)
	full := g.arena.Speed * netcode.StepInterval.Seconds() // one step at full speed
	unit := chart.H / 2.5                                  // two and a half steps fill the row
	slot := chart.W / view.TrailLen
	base := chart.Y + chart.H
	b.rect(chart.X, base-full*unit, chart.W, 1, view.StripDivide)
	for i, pt := range pts {
		if !pt.Stepped {
			continue
		}
		h := min(pt.Step/full, 2.5) * unit
		b.rect(chart.X+float64(i)*slot+1, base-h, max(slot-2, 1), h, trailColor(pt))
	}
	g.damage.add(chart.X, chart.Y, chart.W, chart.H)
}

// trailColor is a trail tick's colour: orange where its motion was uneven.
func trailColor(pt view.TrailPoint) color.RGBA {
	if pt.Uneven {
		return view.TrailUneven
	}
	return view.TrailEven
}

// playerName returns a player's name as the clients know it.
func (g *window) playerName(id uint32) string {
	for _, p := range g.panes {
		if n := p.game.Name(id); n != "" {
			return n
		}
	}
	return fmt.Sprintf("#%d", id)
}

// drawServerHUD explains the three panes and lists the keys, in the server pane's panel.
func (g *window) drawServerHUD(dst *ebiten.Image, p view.Rect, full bool, s *serverPane) {
	t := &s.hud
	if g.showHelp {
		return // the help box is drawn over the window instead
	}
	lines := s.legend(&s.state)
	if tl := g.tour.lines(g); tl != nil {
		lines = tl
	}
	lines = view.FitPanel(lines, g.columns(p.W)+1, int((p.H-padding)/lineHeight)) // legend lines have no indent
	t.begin(p.X, p.Y, p.W, p.H, view.PanelFill)
	y := p.Y + padding
	for _, l := range lines {
		t.add(l.Text, g.fonts.mono, p.X+padding, y, styleColor(l.Style))
		y += lineHeight
	}
	if t.update() || full {
		t.draw(dst)
	}
}

// report writes the server's state drawn in the last frame, one line per tank, for a test
// to compare with the server pane of the screenshot.
func (s *serverPane) report(w io.Writer) {
	ids := slices.Clone(s.state.IDs)
	slices.Sort(ids)
	for _, id := range ids {
		i := slices.Index(s.state.IDs, id)
		p := s.state.Poses[i]
		fmt.Fprintf(w, "tankclient: truth tick %d player %d at %.4f %.4f heading %.4f\n", s.state.Tick, id, p.X, p.Y, p.Heading)
	}
}
