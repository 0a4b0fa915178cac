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

// readTruth refreshes g.state from the server.
func (g *window) readTruth() {
	if g.truth != nil {
		g.truth(&g.state)
		g.followTrail()
	}
}

// drawServerPane draws the server's truth: every tank where the server has it this tick,
// with no prediction, interpolation or ghosts, and below it what the panes show and the keys.
func (g *window) drawServerPane(dst *ebiten.Image, l view.Pane, full bool) {
	g.readTruth()
	if slow := view.SlowLabel(g.slow); slow != "" { // slow motion says so first
		g.drawTitle(dst, &g.serverText, l.Title, g.fitTitle(l.Title.W,
			fmt.Sprintf("SERVER — %s — tick %d", slow, g.state.Tick), "SERVER — "+slow, slow), full)
	} else {
		contact := g.panes[0].game.Rules().Contact
		g.drawTitle(dst, &g.serverText, l.Title, g.fitTitle(l.Title.W,
			fmt.Sprintf("SERVER — the truth both clients chase (tick %d, contact %s)", g.state.Tick, contact),
			fmt.Sprintf("SERVER — tick %d, contact %s", g.state.Tick, contact),
			fmt.Sprintf("SERVER — tick %d", g.state.Tick), "SERVER"), full)
	}
	f := l.Frame
	if f.Scale <= 0 {
		return
	}
	labels := g.labels[:0]
	rules := g.panes[0].game.Rules()
	hasCombat := len(g.state.Combat) == len(g.state.IDs)
	for i, id := range g.state.IDs {
		p := g.state.Poses[i]
		clr := view.PlayerColor(id)
		name := g.playerName(id)
		if hasCombat {
			c := g.state.Combat[i]
			if c.Destroyed {
				clr = view.WreckColor
				name = view.RespawnTag(name, c.RespawnTick, g.state.Tick)
			}
			g.healthBar(&g.combat, f, &g.arena, p, wire.Combat{Health: c.Health, Destroyed: c.Destroyed}, rules)
		}
		g.drawSprite(dst, f, &g.arena, p, clr, solid)
		labels = g.addLabel(labels, f, &g.arena, p, name, clr)
	}
	g.drawTrail(&g.combat, f, l.Chart)
	g.combat.flush(dst)
	g.placeLabels(dst, f, labels)
	if g.showHUD && f.Panel.W > 0 {
		g.drawServerHUD(dst, f.Panel, full)
	}
}

// trailDot is the side of a tick trail's dot, in pixels.
const trailDot = 4

// drawTrail adds the tour's tick trail to b: a dot where the server had the followed tank at
// each of its newest ticks, orange where that tick's motion was uneven, and in chart (when
// the strip row is shown) a bar per tick as tall as the distance moved in it, against a line
// at one full-speed step.
func (g *window) drawTrail(b *lineBatch, f view.Frame, chart view.Rect) {
	s, _, _, ok := g.tour.Scene()
	if !ok || !s.Trail {
		return
	}
	pts := g.script.trail.Points()
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
func (g *window) drawServerHUD(dst *ebiten.Image, p view.Rect, full bool) {
	t := &g.serverHUD
	if g.showHelp {
		return // the help box is drawn over the window instead
	}
	bots := -1
	if g.bots != nil {
		bots = g.bots.Count()
	}
	lines := view.DemoLegend(len(g.state.IDs), bots, g.state.wrecks())
	if g.playback != nil {
		lines = view.ReplaySetLegend(len(g.state.IDs), g.state.wrecks())
	}
	if tl := g.tourLines(); tl != nil {
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

// reportTruth writes the server's state drawn in the last frame, one line per tank, for a
// test to compare with the server pane of the screenshot.
func (g *window) reportTruth(w io.Writer) {
	ids := slices.Clone(g.state.IDs)
	slices.Sort(ids)
	for _, id := range ids {
		i := slices.Index(g.state.IDs, id)
		p := g.state.Poses[i]
		fmt.Fprintf(w, "tankclient: truth tick %d player %d at %.4f %.4f heading %.4f\n", g.state.Tick, id, p.X, p.Y, p.Heading)
	}
}
