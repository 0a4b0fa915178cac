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

// window is the Ebitengine game (ebiten.Game) and the drawing core: every tick it reads the
// keys that switch what is drawn and lets its mode drive the client panes; every frame it
// draws those panes where the mode lays them out, and the mode draws what it adds.
// Ebitengine calls its methods on one goroutine.
type window struct {
	ctx   context.Context
	opts  Options
	arena netcode.Arena // from the Welcome; fixed for the session
	fonts *fonts
	mode  mode
	panes []*clientPane // the mode's client panes, in its order
	tour  tourGuide     // the guided tour, on whichever mode

	showHelp   bool
	showHUD    bool
	expandHUD  bool // E: every HUD line over its pane, for a panel too small to hold them
	showGhosts bool
	showStrip  bool
	showScores bool // the scoreboard is open (Tab held, or Options.ShowScores)
	// notice is the mode's last failed switch (the demo's contact key), a warning in every HUD.
	notice error
	// fromLobby is set on a match started from the lobby (RunLobby): Esc and a lost session
	// go back there rather than closing the window.
	fromLobby bool

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
	// held are the panes' runners whose locks this Update or Draw holds (hold, release).
	held []*client.Runner
}

func newWindow(ctx context.Context, arena netcode.Arena, opts Options, m mode) (*window, error) {
	f, err := loadFonts()
	if err != nil {
		return nil, err
	}
	return newWindowWith(ctx, arena, opts, m, f), nil
}

// newWindowWith is newWindow drawing with fonts f: a lobby's matches share the lobby's.
func newWindowWith(ctx context.Context, arena netcode.Arena, opts Options, m mode, f *fonts) *window {
	return &window{
		ctx:        ctx,
		opts:       opts,
		arena:      arena,
		fonts:      f,
		mode:       m,
		showHUD:    true,
		showGhosts: true,
		showStrip:  true,
		showScores: opts.ShowScores,
		shot:       screenshot{path: opts.ScreenshotPath, frames: opts.ScreenshotFrames},
		gif:        recording{path: opts.GIFPath},
	}
}

// Update runs one 60 Hz tick: keys, then the mode's step of every pane.
func (g *window) Update() error {
	g.hold()
	defer g.release()
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
	if !g.started {
		g.started = true
		if err := g.mode.begin(g); err != nil {
			return err
		}
		if g.opts.Tour {
			g.tour.start(g)
		}
	}
	if quit := g.handleKeys() || ebiten.IsWindowBeingClosed(); quit {
		if g.failure != nil {
			return g.failure // quitting early does not make a lost session a clean exit
		}
		return ebiten.Termination
	}
	now := time.Now()
	g.tour.act(g)
	if err := g.mode.step(g, now); err != nil {
		return err
	}
	if g.failure != nil && now.Sub(g.failAt) >= failureLinger {
		return g.failure
	}
	return nil
}

// hold takes every live pane's game from its runner (client.Runner) for the rest of an
// Update or Draw, so the window drives and draws each game as one consistent state.
func (g *window) hold() {
	for _, p := range g.panes {
		if p.runner != nil {
			p.runner.Lock()
			g.held = append(g.held, p.runner)
		}
	}
}

// release gives the games back to their runners.
func (g *window) release() {
	for _, r := range g.held {
		r.Unlock()
	}
	clear(g.held)
	g.held = g.held[:0]
}

// stopRunners stops every pane's runner once the window is done with its games: they are the
// caller's again. Why a session ended, the window has already said.
func (g *window) stopRunners() {
	for _, p := range g.panes {
		_ = p.runner.Stop()
	}
}

// Draw draws the frame and, when a screenshot is due, saves it.
func (g *window) Draw(screen *ebiten.Image) {
	g.hold()
	defer g.release()
	g.countFrame(time.Now())
	g.frames++
	if g.shot.path != "" && g.frames >= g.shot.frames && !g.shot.due {
		reached := view.MomentReached(g.opts.ScreenshotWhen, g.panes[0].game, g.panes[0].game.Now())
		g.shot.due = reached || g.shot.waitedEnough(time.Now())
		g.shot.missed = !reached
	}
	g.layout = g.mode.layout(g, screen.Bounds(), g.layout[:0])
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
		g.drawClientPane(screen, p, g.layout[g.mode.paneIndex(i)], full)
	}
	g.mode.draw(g, screen, full)
	g.drawOverlays(screen)
	g.mode.drawOver(g, screen)
	g.damage.endFrame()
	g.text.endFrame()
	g.viewChanged = false
	if now := time.Now(); !g.shot.done && g.gif.due(now) {
		g.gif.capture(screen, now)
	}
	if g.shot.due && !g.shot.done {
		g.takeShot(screen)
	}
}

// takeShot writes the screenshot, the GIF and, for a test, what the frame showed.
func (g *window) takeShot(screen *ebiten.Image) {
	g.shot.take(screen)
	if g.gif.path != "" && g.shot.err == nil {
		g.shot.err = g.gif.write()
	}
	if g.opts.Report == nil || !g.opts.ScreenshotDetails {
		return
	}
	g.mode.reportShot(g, g.opts.Report)
	if g.showHUD {
		for i, p := range g.panes {
			fmt.Fprintf(g.opts.Report, "tankclient: hud pane %d: %d lines, %d hidden and counted\n", g.mode.paneIndex(i), p.hudLinesAll, p.hudHidden)
		}
	}
}

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
		if p.game.Local() == nil || (g.showHUD && g.layout[g.mode.paneIndex(i)].Frame.PanelOverArena()) {
			return true
		}
	}
	return false
}

// Layout keeps one logical pixel per window pixel, so a bigger window shows a bigger arena.
func (g *window) Layout(outsideWidth, outsideHeight int) (int, int) {
	return max(outsideWidth, 1), max(outsideHeight, 1)
}

// DrawFinalScreen copies the finished frame to the window (ebiten.FinalScreenDrawer). The
// frame is opaque, so it is copied rather than blended: under a software renderer that is
// one read of the window's pixels saved every frame.
func (g *window) DrawFinalScreen(screen ebiten.FinalScreen, offscreen *ebiten.Image, geoM ebiten.GeoM) {
	drawFinal(screen, offscreen, geoM)
}

// drawFinal copies offscreen, the finished frame, to the window's screen through geoM.
func drawFinal(screen ebiten.FinalScreen, offscreen *ebiten.Image, geoM ebiten.GeoM) {
	op := &ebiten.DrawImageOptions{GeoM: geoM, Blend: ebiten.BlendCopy}
	if s := geoM.Element(0, 0); s != math.Floor(s) {
		op.Filter = ebiten.FilterLinear
	}
	screen.DrawImage(offscreen, op)
}
