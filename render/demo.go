package render

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"tanknet/client"
	"tanknet/netcode"
	"tanknet/render/view"
)

// DemoOptions configure the three-pane demo window: the near player, the server's truth and
// the far player side by side.
type DemoOptions struct {
	// Options set the window, the netcode and the switches at start, for both players;
	// Options.Net is ignored in favour of NearNet and FarNet.
	Options
	// Near and Far are the two players' established sessions, on the same server; each
	// may sit on a link conditioner (NearNet, FarNet; nil: none).
	Near, Far       *client.Session
	NearNet, FarNet *Network
	// Truth fills in the server's newest tick (Tick 0 and nothing else before the first).
	// The server pane calls it once a frame, on the window's goroutine.
	Truth func(*Truth)
	// Bots are the demo's bots, which + and - add and remove.
	Bots Bots
	// Clock is the game time the players (and the bots) run on, and ServerRate sets the rate
	// of the server's clock: M slows the whole demo with both (demo.go).
	Clock      *client.Clock
	ServerRate func(rate float64)
	// SetContact switches the contact mode of the demo's room during the match
	// (server.Server.SetContact): C cycles it, predicted, server, off (demo.go).
	SetContact func(netcode.ContactMode) error
}

// Bots are the demo's bots, which the window adds and removes one at a time. The window calls
// the methods on its own goroutine; they must not block.
type Bots interface {
	Add()
	Remove()
	Count() int
	// HoldFire stops (true) or lets (false) the bots fire at and steer toward other tanks;
	// they drive on. The guided tour holds their fire while it runs.
	HoldFire(hold bool)
}

// RunDemo opens the demo window on two established sessions and plays like Run until the
// player quits, ctx is done, the screenshot is written, or a session ends. RunDemo owns both
// sessions. It must be called from the main goroutine.
func RunDemo(ctx context.Context, opts DemoOptions) error {
	if opts.Near == nil || opts.Far == nil || opts.Truth == nil || opts.Bots == nil || opts.Clock == nil || opts.ServerRate == nil || opts.SetContact == nil {
		return errors.New("render: the demo needs two sessions, the server's truth, its bots, its clocks and its contact switch")
	}
	stopNear, stopFar := runSession(opts.Near), runSession(opts.Far)
	defer stopFar()
	defer stopNear()
	if err := opts.Validate(); err != nil {
		return err
	}
	m := newDemo(opts)
	g, err := newWindow(ctx, opts.Near.Welcome().Arena, opts.Options, m)
	if err != nil {
		return err
	}
	now := time.Now()
	g.panes = []*clientPane{
		newClientPane("NEAR PLAYER (WASD)", "near", m.clock.Link(opts.Near), opts.Options, opts.NearNet, now),
		newClientPane("FAR PLAYER (arrows)", "far", m.clock.Link(opts.Far), opts.Options, opts.FarNet, now),
	}
	for _, p := range g.panes {
		p.contactKey = true
	}
	return g.run()
}

// newDemo is the demo's mode on opts' server.
func newDemo(opts DemoOptions) *demo {
	d := &demo{live: live{clock: opts.Clock}, bots: opts.Bots, serverRate: opts.ServerRate, slow: 1, switchContact: opts.SetContact}
	d.server = serverPane{truth: opts.Truth, legend: func(t *Truth) []view.Line {
		return view.DemoLegend(len(t.IDs), d.bots.Count(), t.wrecks())
	}}
	return d
}

// demo is the mode of the demo's window on its own server: the near player (WASD, Space) and
// the far player (arrows, Enter) live, and between them the server's truth. The window also
// adds and removes the server's bots (+ and -), switches its room's contact mode (C) and
// slows the whole match (M).
type demo struct {
	threePanes
	live
	server     serverPane
	bots       Bots
	serverRate func(rate float64)
	slow       int // the slow motion factor in force, 1 at real time
	// switchContact switches the room's contact mode; asked is the mode last asked for
	// (unspecified: none yet).
	switchContact func(netcode.ContactMode) error
	asked         netcode.ContactMode
}

func (d *demo) begin(w *window) error {
	if err := d.live.begin(w); err != nil {
		return err
	}
	d.setSlow(w, w.opts.Slow)
	return nil
}

// drive makes WASD drive the near player and the arrows the far one; Space fires the near
// player's gun and Enter the far one's.
func (d *demo) drive(w *window) {
	near, far := w.panes[0], w.panes[1]
	near.input, far.input = wasdKeys().Input(), arrowKeys().Input()
	near.firing, far.firing = held(ebiten.KeySpace), held(ebiten.KeyEnter)
}

// key handles M (slow motion, Shift: back), C (contact) and + and - (bots).
func (d *demo) key(w *window, pressed func(ebiten.Key) bool, shift bool) {
	switch {
	case pressed(ebiten.KeyM):
		step := 1
		if shift {
			step = -1
		}
		d.setSlow(w, view.NextSlow(d.slow, step))
	case pressed(ebiten.KeyC):
		d.cycleContact(w)
	case pressed(ebiten.KeyEqual) || pressed(ebiten.KeyNumpadAdd):
		d.bots.Add()
	case pressed(ebiten.KeyMinus) || pressed(ebiten.KeyNumpadSubtract):
		d.bots.Remove()
	}
}

// draw draws the server pane, its title saying the slow motion or the contact mode.
func (d *demo) draw(w *window, dst *ebiten.Image, full bool) {
	w.drawServerPane(dst, w.layout[view.ServerPane], full, &d.server, d.slow)
}

func (d *demo) drawOver(*window, *ebiten.Image) {}

func (d *demo) reportShot(w *window, out io.Writer) { d.server.report(out) }

func (d *demo) features() []string {
	return []string{view.FeatureInputBuffer, view.FeatureContact}
}

func (d *demo) slowFactor() int { return d.slow }

// Slow motion (M, -slow): the demo's whole match runs a quarter or an eighth as fast, so each
// 50 ms tick can be seen. Everything slows together and nothing else changes: the server's
// clock (DemoOptions.ServerRate), the clock both players' Games and the bots run on
// (DemoOptions.Clock), and every delay of both players' links (view.SlowConditions). Game
// time stays continuous and every tick is still one 50 ms step, so a recording made in slow
// motion replays and verifies like any other.

// setSlow runs the demo factor times slower than real time (1: real time).
func (d *demo) setSlow(w *window, factor int) {
	factor = max(factor, 1)
	if factor == d.slow {
		return
	}
	rate := 1 / float64(factor)
	d.serverRate(rate)
	d.clock.SetRate(time.Now(), rate)
	d.slow = factor
	for _, p := range w.panes {
		p.setSlow(factor)
	}
	w.viewChanged = true
	if w.opts.Report != nil {
		fmt.Fprintf(w.opts.Report, "tankclient: speed 1/%d\n", factor)
	}
}

// contact returns the room's contact mode as the near player plays by it.
func (d *demo) contact(w *window) (netcode.ContactMode, bool) {
	return w.panes[0].game.Rules().Contact, true
}

// setContact asks the server to switch its room to contact mode m. The players hear of it
// in a RulesChanged; their HUDs and the server pane's title change when it arrives. A
// failure stays in every HUD until the next switch.
func (d *demo) setContact(w *window, m netcode.ContactMode) {
	if w.notice = d.switchContact(m); w.notice == nil {
		d.asked = m
	}
}

// cycleContact (C) switches to the contact mode after the one last asked for (or, the first
// time, the one the near player plays by): predicted, server, off.
func (d *demo) cycleContact(w *window) {
	cur := d.asked
	if cur == netcode.ContactUnspecified {
		cur, _ = d.contact(w)
	}
	d.setContact(w, view.NextContact(cur))
	w.viewChanged = true
}

func (d *demo) holdFire(hold bool) { d.bots.HoldFire(hold) }

func (d *demo) actors(w *window) (near, far *clientPane, ok bool) {
	return w.panes[0], w.panes[1], true
}
