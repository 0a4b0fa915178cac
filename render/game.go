package render

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"tanknet/client"
	"tanknet/netcode"
	"tanknet/render/view"
)

// failureLinger is how long the window shows why the session ended before it closes.
const failureLinger = 3 * time.Second

// window is the Ebitengine game (ebiten.Game): it feeds the keyboard to one client.Game (the single window)
// or two (the demo, with the server's truth between them) every tick and draws what package
// view decides. Ebitengine calls its methods on one goroutine.
type window struct {
	ctx   context.Context
	opts  Options
	arena netcode.Arena // from the Welcome; fixed for the session
	fonts *fonts

	panes []*clientPane // one, or the demo's near and far players
	truth func(*Truth)  // the demo's server: nil in a single window
	// playback drives the pane from a client recording instead of a session (replay.go);
	// nil when live.
	playback *replayControl
	bots     Bots  // the demo's bots: nil when it has none to add
	state    Truth // the server's newest tick, read each frame in the demo
	// clock is the game time the panes run on; the demo's slow motion (slowmo.go) slows it
	// with serverRate, its server's clock, and slow is the factor in force (1: real time).
	clock      *client.Clock
	serverRate func(rate float64)
	slow       int
	script     tourScript // what the guided tour does by itself (tour.go)
	// setContact switches the demo's room's contact mode (C; contact.go), nil where the
	// window has no server of its own; contactAsked is the mode last asked for (0: none yet)
	// and contactErr why the last switch failed.
	setContact   func(netcode.ContactMode) error
	contactAsked netcode.ContactMode
	contactErr   error

	showHelp   bool
	showHUD    bool
	expandHUD  bool // E: every HUD line over its pane, for a panel too small to hold them
	tour       view.Tour
	sceneFrame int // the frame the tour's scene began, for Options.TourAdvance
	showGhosts bool
	showStrip  bool
	showScores bool // the scoreboard is open (Tab held, or Options.ShowScores)

	frames     int       // drawn so far
	reported   bool      // the -frame-report run has its frames; the game ends
	failure    error     // why a session ended; nil while they run
	failAt     time.Time // when failure was noticed
	shot       screenshot
	gif        recording
	frameStats view.FrameStats // frames after the warm-up
	firstFrame time.Time
	warmedUp   bool
	dropBase   int // prediction steps dropped during the warm-up

	// Drawing caches: what does not change between frames is prepared once (see doc.go).
	backdrop   backdrop
	sprites    sprites
	text       textCache
	helpText   textLayer
	serverText textLayer // the server pane's title
	serverHUD  textLayer // and its legend
	batch      lineBatch
	combat     lineBatch // tracers, marks and health bars
	labels     []tankLabel
	labelSpecs []view.LabelSpec
	labelRects []view.Rect
	damage     damage
	layout     []view.Pane // this frame's, pane i of the window
	frameBuf   [3]view.Frame
	started    bool // the first Update has run
	waitShown  bool // the last frame showed a "waiting for the first snapshot" box: the next one is drawn whole
	// viewChanged is set by a key that changes what is drawn; the next frame is drawn whole.
	viewChanged bool
}

func newWindow(ctx context.Context, arena netcode.Arena, opts Options) (*window, error) {
	f, err := loadFonts()
	if err != nil {
		return nil, err
	}
	return &window{
		ctx:        ctx,
		opts:       opts,
		clock:      client.NewClock(time.Now()),
		slow:       1,
		arena:      arena,
		fonts:      f,
		showHUD:    true,
		showGhosts: true,
		showStrip:  true,
		showScores: opts.ShowScores,
		shot:       screenshot{path: opts.ScreenshotPath, frames: opts.ScreenshotFrames},
		gif:        recording{path: opts.GIFPath},
	}, nil
}

// Update runs one 60 Hz tick: keys, then the netcode of every pane.
func (g *window) Update() error {
	if g.ctx.Err() != nil {
		return ebiten.Termination
	}
	if g.shot.done || g.reported {
		switch {
		case g.shot.err != nil:
			return g.shot.err
		case g.failure != nil:
			return g.failure
		}
		return ebiten.Termination
	}
	if !g.started && g.playback == nil {
		// Opening the window takes a moment after the sessions joined. Starting the games'
		// clocks at the first frame keeps that moment from counting as a stall that drops
		// prediction steps; what the server sent meanwhile waits in the sessions' queues.
		// One instant for every pane: the demo's two Games share a clock, and so do their
		// recordings (package matchplay replays them side by side on it).
		g.started = true
		start := g.clock.At(time.Now())
		for i, p := range g.panes {
			p.game = client.NewGame(p.game.Link(), g.opts.Game, start)
			p.noteNetwork()
			if i < len(g.opts.Record) {
				if err := p.game.RecordTo(g.opts.Record[i]); err != nil {
					return err
				}
			}
		}
	}
	if g.frames == 0 && g.slow != g.opts.Slow {
		g.setSlow(g.opts.Slow)
	}
	if g.opts.Tour && g.frames == 0 && !g.tour.Running() {
		g.startTour()
	}
	if quit := g.handleKeys() || ebiten.IsWindowBeingClosed(); quit {
		if g.failure != nil {
			return g.failure // quitting early does not make a lost session a clean exit
		}
		return ebiten.Termination
	}
	now := time.Now()
	if g.playback != nil {
		g.playback.update(now)
		return nil
	}
	g.scriptTour()
	if g.failure == nil {
		for _, p := range g.panes {
			if err := p.update(g.clock.At(now), &g.arena); err != nil {
				g.failure, g.failAt = err, now
				break
			}
		}
	}
	if g.opts.OnFrame != nil {
		games := make([]*client.Game, len(g.panes))
		for i, p := range g.panes {
			games[i] = p.game
		}
		g.opts.OnFrame(now, games)
	}
	if g.warmedUp && g.opts.FrameReport > 0 {
		for _, p := range g.panes {
			p.noteWait()
		}
	}
	if g.failure != nil && now.Sub(g.failAt) >= failureLinger {
		return g.failure
	}
	return nil
}

// Draw draws the frame and, when a screenshot is due, saves it.
func (g *window) Draw(screen *ebiten.Image) {
	g.countFrame(time.Now())
	g.frames++
	if g.shot.path != "" && g.frames >= g.shot.frames && !g.shot.due {
		reached := view.MomentReached(g.opts.ScreenshotWhen, g.panes[0].game, g.panes[0].game.Now())
		g.shot.due = reached || g.shot.waitedEnough(time.Now())
		g.shot.missed = !reached
	}
	g.layout = g.layoutFor(screen, g.layout[:0])
	frames := g.frameBuf[:0]
	for _, l := range g.layout {
		frames = append(frames, l.Frame)
	}
	full := g.backdrop.update(screen, &g.arena, frames...) || g.needsFullFrame()
	if full {
		g.backdrop.draw(screen)
	} else {
		g.damage.repair(screen, g.backdrop.img)
	}
	for i, p := range g.panes {
		g.drawClientPane(screen, p, g.layout[g.paneIndex(i)], full)
	}
	if g.isDemo() {
		g.drawServerPane(screen, g.layout[view.ServerPane], full)
	}
	g.drawOverlays(screen)
	if g.playback != nil {
		g.drawReplayBar(screen)
	}
	g.damage.endFrame()
	g.text.endFrame()
	g.viewChanged = false
	if now := time.Now(); !g.shot.done && g.gif.due(now) {
		g.gif.capture(screen, now)
	}
	if g.shot.due && !g.shot.done {
		g.shot.take(screen)
		if g.gif.path != "" && g.shot.err == nil {
			g.shot.err = g.gif.write()
		}
		if g.isDemo() && g.opts.Report != nil && g.opts.ScreenshotDetails {
			g.reportTruth(g.opts.Report)
		}
		if g.opts.Report != nil && g.showHUD && g.opts.ScreenshotDetails {
			for i, p := range g.panes {
				fmt.Fprintf(g.opts.Report, "tankclient: hud pane %d: %d lines, %d hidden and counted\n", g.paneIndex(i), p.hudLinesAll, p.hudHidden)
			}
		}
	}
}

// isDemo reports whether this is the demo's three panes (near player | server | far
// player) rather than one player's window.
func (g *window) isDemo() bool { return g.truth != nil }

// statsWarmUp is how long after the first frame the frame statistics start: the window's
// first frames prepare images and the software renderer compiles its shaders, which says
// nothing about how fast it draws once running.
const statsWarmUp = time.Second

// countFrame records a frame drawn at now for the frame statistics, after the warm-up.
// Only a run that reports them keeps them: they grow by a frame time every frame. A
// FrameReport run ends once it has recorded its frames.
func (g *window) countFrame(now time.Time) {
	if g.opts.Report == nil || g.reported {
		return
	}
	if g.firstFrame.IsZero() {
		g.firstFrame = now
	}
	if !g.warmedUp && now.Sub(g.firstFrame) >= statsWarmUp {
		g.warmedUp, g.dropBase = true, g.droppedSteps()
	}
	if g.warmedUp {
		g.frameStats.Frame(now)
		g.reported = g.opts.FrameReport > 0 && g.frameStats.Summary().Frames >= g.opts.FrameReport
	}
}

// droppedSteps returns the prediction steps every pane's clock has dropped so far.
func (g *window) droppedSteps() int {
	n := 0
	for _, p := range g.panes {
		if l := p.game.Local(); l != nil {
			n += l.Counters().DroppedSteps
		}
	}
	return n
}

// layoutFor places the panes in a window the size of screen, appending them to dst.
func (g *window) layoutFor(screen *ebiten.Image, dst []view.Pane) []view.Pane {
	b := screen.Bounds()
	if g.playback != nil {
		b.Max.Y = max(b.Max.Y-ReplayBarHeight, b.Min.Y+1) // the playback bar is under the pane
	}
	if g.isDemo() {
		ps := view.DemoLayout(b.Dx(), b.Dy(), g.arena.Width, g.arena.Height, g.showHUD, g.showStrip)
		return append(dst, ps[:]...)
	}
	if g.arena.Fits() {
		return append(dst, view.SingleLayout(b.Dx(), b.Dy(), g.arena.Width, g.arena.Height, g.showHUD, g.showStrip))
	}
	// An arena larger than the view: a camera shows the view around the local tank.
	pane := view.SingleLayout(b.Dx(), b.Dy(), netcode.ViewWidth, netcode.ViewHeight, g.showHUD, g.showStrip)
	at := netcode.Pose{X: g.arena.Width / 2, Y: g.arena.Height / 2}
	if p := g.panes[0]; p.game.Local() != nil {
		at = p.tech.LocalPose(p.game.Local(), &p.shadow)
	}
	pane.Frame = pane.Frame.Follow(at.X, at.Y)
	return append(dst, pane)
}

// paneIndex returns the layout index of client pane i: the demo's far player is the third.
func (g *window) paneIndex(i int) int {
	if g.isDemo() && i == 1 {
		return view.FarPane
	}
	return i
}

// needsFullFrame reports whether this frame must repaint the whole window rather than only
// repair where tanks were: when the view changed, or something is drawn over an arena that
// the damage record does not track (a floating HUD, the help, a message box).
func (g *window) needsFullFrame() bool {
	if g.viewChanged || g.showHelp || g.showScores || g.expandHUD || g.failure != nil || g.waitShown {
		return true
	}
	if len(g.layout) > 0 && g.layout[0].Frame.Follows {
		return true // the camera moves everything
	}
	for i, p := range g.panes {
		if p.game.Local() == nil || (g.showHUD && g.layout[g.paneIndex(i)].Frame.PanelOverArena()) {
			return true
		}
	}
	return false
}

// Layout keeps one logical pixel per window pixel, so a bigger window shows a bigger arena.
func (g *window) Layout(outsideWidth, outsideHeight int) (int, int) {
	return max(outsideWidth, 1), max(outsideHeight, 1)
}

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

// title is a demo pane's title line: who it is, and over which network.
func (p *clientPane) title() string {
	return p.role + " — " + p.netTitle()
}

// midTitle is a pane title for a pane too narrow for title: the preset's name and, in
// brief, what it adds (view.BriefConditions), so every preset shows its figures.
func (p *clientPane) midTitle() string {
	if p.net == nil {
		return p.shortTitle()
	}
	return p.role + " — " + p.net.Preset + ": " + view.BriefConditions(p.netBase)
}

// shortTitle is a pane title for a narrow pane: who it is and the preset's name.
func (p *clientPane) shortTitle() string {
	if p.net == nil {
		return p.role
	}
	return p.role + " — " + p.net.Preset
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

// DrawFinalScreen copies the finished frame to the window (ebiten.FinalScreenDrawer). The
// frame is opaque, so it is copied rather than blended: under a software renderer that is
// one read of the window's pixels saved every frame.
func (g *window) DrawFinalScreen(screen ebiten.FinalScreen, offscreen *ebiten.Image, geoM ebiten.GeoM) {
	op := &ebiten.DrawImageOptions{GeoM: geoM, Blend: ebiten.BlendCopy}
	if s := geoM.Element(0, 0); s != math.Floor(s) {
		op.Filter = ebiten.FilterLinear
	}
	screen.DrawImage(offscreen, op)
}
