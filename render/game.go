package render

import (
	"context"
	"image"
	"math"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"tanknet/client"
	"tanknet/netcode"
	"tanknet/render/view"
)

// failureLinger is how long the window shows why the session ended before it closes.
const failureLinger = 3 * time.Second

// Game is the Ebitengine game: it feeds the keyboard to a client.Game every tick and draws
// what package view decides. Ebitengine calls its methods on one goroutine.
type Game struct {
	ctx   context.Context
	opts  Options
	game  *client.Game
	arena netcode.Arena // from the Welcome; fixed for the session
	fonts *fonts

	tech       view.Techniques
	shadow     view.Unreconciled
	history    view.History
	showHelp   bool
	showHUD    bool
	showGhosts bool
	input      netcode.Input

	net    *Network
	netErr error // the last failed preset switch

	frames     int
	failure    error     // why the session ended; nil while it runs
	failAt     time.Time // when failure was noticed
	shot       screenshot
	frameStats view.FrameStats

	// Drawing caches: what does not change between frames is prepared once (see doc.go).
	backdrop   backdrop
	sprites    sprites
	text       textCache
	hudText    textLayer
	helpText   textLayer
	batch      lineBatch
	scratch    []view.Point
	labels     []tankLabel
	labelSpecs []view.LabelSpec
	labelRects []view.Rect
	damage     damage
	hudRect    image.Rectangle // where the HUD panel was last drawn
	// viewChanged is set by a key that changes what is drawn; the next frame is drawn whole.
	viewChanged bool
}

func newGame(ctx context.Context, sess *client.Session, opts Options, now time.Time) (*Game, error) {
	f, err := loadFonts()
	if err != nil {
		return nil, err
	}
	return &Game{
		ctx:        ctx,
		opts:       opts,
		game:       client.NewGame(sess, opts.Game, now),
		arena:      sess.Welcome().Arena,
		fonts:      f,
		tech:       opts.Techniques,
		showHUD:    true,
		showGhosts: true,
		net:        opts.Net,
		shot:       screenshot{path: opts.ScreenshotPath, frames: opts.ScreenshotFrames},
	}, nil
}

// Update runs one 60 Hz tick: keys, then the netcode.
func (g *Game) Update() error {
	if g.ctx.Err() != nil {
		return ebiten.Termination
	}
	if g.shot.done {
		switch {
		case g.shot.err != nil:
			return g.shot.err
		case g.failure != nil:
			return g.failure
		}
		return ebiten.Termination
	}
	if quit := g.handleKeys() || ebiten.IsWindowBeingClosed(); quit {
		if g.failure != nil {
			return g.failure // quitting early does not make a lost session a clean exit
		}
		return ebiten.Termination
	}
	now := time.Now()
	if g.failure == nil {
		if err := g.game.Update(now, g.input); err != nil {
			g.failure, g.failAt = err, now
		} else {
			g.observe()
		}
	}
	g.frames++
	if g.shot.path != "" && g.frames >= g.shot.frames {
		g.shot.due = true
	}
	if g.failure != nil && now.Sub(g.failAt) >= failureLinger {
		return g.failure
	}
	return nil
}

// observe records what the last Update changed for the shadow and the graph.
func (g *Game) observe() {
	l := g.game.Local()
	if l == nil {
		return
	}
	g.shadow.Observe(&g.arena, l, g.input)
	if g.game.Stats().RTTSamples == 0 {
		return // a graph starting at a made-up zero round trip would mislead
	}
	off := l.Offset()
	g.history.Add(view.Sample{At: g.game.Now(), RTT: g.game.Stats().RTT, Correction: math.Hypot(off.X, off.Y)})
}

// Draw draws the frame and, when a screenshot is due, saves it.
func (g *Game) Draw(screen *ebiten.Image) {
	g.frameStats.Frame(time.Now())
	b := screen.Bounds()
	f := view.Layout(b.Dx(), b.Dy(), g.arena.Width, g.arena.Height, g.showHUD)
	full := g.backdrop.update(screen, &g.arena, f) || g.needsFullFrame(f)
	if full {
		g.backdrop.draw(screen)
	} else {
		g.damage.repair(screen, g.backdrop.img)
	}
	g.drawTanks(screen, f, &g.arena)
	if g.showHUD {
		g.drawHUD(screen, f, full)
	}
	g.drawOverlays(screen, f)
	g.damage.endFrame()
	g.text.endFrame()
	g.viewChanged = false
	if g.shot.due && !g.shot.done {
		g.shot.take(screen)
	}
}

// needsFullFrame reports whether this frame must repaint the whole window rather than only
// repair where tanks were: when the view changed, or something is drawn over the arena that
// the damage record does not track (a floating HUD, the help, a message box).
func (g *Game) needsFullFrame(f view.Frame) bool {
	return g.viewChanged || g.showHelp || g.failure != nil || g.game.Local() == nil || (g.showHUD && !f.Side)
}

// Layout keeps one logical pixel per window pixel, so a bigger window shows a bigger arena.
func (g *Game) Layout(outsideWidth, outsideHeight int) (int, int) {
	return max(outsideWidth, 1), max(outsideHeight, 1)
}
