package render

import (
	"context"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"tanknet/client"
	"tanknet/netcode"
	"tanknet/render/view"
)

// Run opens the window on sess, an established session, and plays until the player quits,
// ctx is done, the screenshot is written, or the session ends. Run owns sess: it runs its
// reader and closes it with a goodbye before returning. It must be called from the main
// goroutine (Ebitengine's rule).
//
// Run returns nil after a quit, a closed window, a cancelled ctx or a written screenshot.
// When the server drops us or goes silent it shows why for a few seconds and returns the
// session's error (a *client.DisconnectedError, or a timeout).
func Run(ctx context.Context, sess *client.Session, opts Options) error {
	if err := opts.Validate(); err != nil {
		_ = sess.Close("client misconfigured")
		return err
	}
	defer runSession(sess)()
	m := &liveWindow{live: live{clock: client.NewClock(time.Now())}}
	g, err := newWindow(ctx, sess.Welcome().Arena, opts, m)
	if err != nil {
		return err
	}
	g.panes = []*clientPane{newClientPane("", "player", m.clock.Link(sess), opts, opts.Net, time.Now())}
	if opts.Bot != 0 {
		g.panes[0].pilot = newAutopilot(opts.Bot)
	}
	g.panes[0].away = opts.Away
	return g.run()
}

// liveWindow is the mode of one player's window on a session (Run; the browser page too): the
// keys drive its tank, or Options.Bot's driver does.
type liveWindow struct {
	onePane
	fixed
	live
	fromLobby bool // started from the lobby: Esc goes back there, F10 quits
}

func (m *liveWindow) drive(w *window) { keyboard{w.opts.Touch}.steer(w.panes[0]) }

// help is the single window's key help, with Esc and F10 as a match from the lobby has them.
func (m *liveWindow) help() []view.Line {
	if m.fromLobby {
		return view.LobbyMatchHelp()
	}
	return m.onePane.help()
}

// keyboard makes WASD and the arrows alike drive the tank, and Space fire; a touch pad, if
// there is one, adds its stick to the keys' input (clamped) and fires too. Under
// Options.Bot the pane's autopilot overrides the driving.
type keyboard struct{ touch *view.TouchPad }

func (k keyboard) steer(p *clientPane) {
	wasd, arrows := wasdKeys(), arrowKeys()
	p.input = view.Keys{Forward: wasd.Forward || arrows.Forward, Back: wasd.Back || arrows.Back,
		Left: wasd.Left || arrows.Left, Right: wasd.Right || arrows.Right}.Input()
	p.firing = held(ebiten.KeySpace)
	if k.touch != nil {
		in, fire := k.touch.Read()
		p.input = netcode.Input{Turn: p.input.Turn + in.Turn, Throttle: p.input.Throttle + in.Throttle}.Clamp()
		p.firing = p.firing || fire
	}
}

// autopilot drives the tank as tanksim's bots do (Options.Bot): one new decision of its
// driver per prediction step taken, as client.RunBot does, made before every Update (the
// frame's and the runner's, so a step the runner takes between frames has its own). Space
// (and a touch pad's fire button) still fires.
type autopilot struct {
	driver *client.Driver
	next   netcode.Input // the driver's current decision
	steps  int           // prediction steps the driver has decided
}

func newAutopilot(seed uint64) *autopilot {
	d := client.NewDriver(seed)
	return &autopilot{driver: d, next: d.Next()}
}

// decide returns the driver's decision for g's next prediction step.
func (a *autopilot) decide(g *client.Game) netcode.Input {
	for n := g.Stats().InputsSent; a.steps < n; a.steps++ {
		a.next = a.driver.Next()
	}
	return a.next
}

func wasdKeys() view.Keys {
	return view.Keys{Forward: held(ebiten.KeyW), Back: held(ebiten.KeyS), Left: held(ebiten.KeyA), Right: held(ebiten.KeyD)}
}

func arrowKeys() view.Keys {
	return view.Keys{Forward: held(ebiten.KeyArrowUp), Back: held(ebiten.KeyArrowDown), Left: held(ebiten.KeyArrowLeft), Right: held(ebiten.KeyArrowRight)}
}

// live runs client panes on their sessions, all on one clock: the live window's and the
// demo's.
type live struct {
	clock *client.Clock
}

// begin starts the panes' games, and their runners, at the first frame. Opening the window takes a moment after
// the sessions joined; starting the games' clocks then keeps that moment from counting as a
// stall that drops prediction steps, and what the server sent meanwhile waits in the
// sessions' queues. One instant for every pane: the demo's two Games share a clock, and so
// do their recordings (package matchplay replays them side by side on it).
func (l *live) begin(w *window) error {
	start := l.clock.At(time.Now())
	for i, p := range w.panes {
		p.game = client.NewGame(p.game.Link(), w.opts.Game, start)
		p.noteNetwork()
		if i < len(w.opts.Record) {
			if err := p.game.RecordTo(w.opts.Record[i]); err != nil {
				return err
			}
		}
		if !w.opts.FrameDriven {
			l.startRunner(w, p)
		}
	}
	return nil
}

// startRunner gives p's game a runner that takes what arrives and sends each prediction step
// on time between frames (client.Runner). The window holds the runner's lock for the rest of
// this Update, as for every Update and Draw after it.
func (l *live) startRunner(w *window, p *clientPane) {
	p.runner = client.NewRunner(p.game, l.clock)
	p.runner.SetStep(func(now time.Time) error {
		err := p.update(now, &w.arena)
		if err == nil && w.warmedUp && w.opts.FrameReport > 0 {
			p.noteWait()
		}
		return err
	})
	p.runner.Lock()
	w.held = append(w.held, p.runner)
	p.runner.Start()
	l.followAway(p)
}

// step runs every pane's game one frame on the clock, until a session ends; then tells
// Options.OnFrame, and keeps the input waits of a frame report.
func (l *live) step(w *window, now time.Time) error {
	if w.failure == nil {
		for _, p := range w.panes {
			err := p.runner.Err()
			if err == nil {
				err = p.update(l.clock.At(now), &w.arena)
			}
			if err != nil {
				w.failure, w.failAt = err, now
				break
			}
		}
	}
	if w.opts.OnFrame != nil {
		games := make([]*client.Game, len(w.panes))
		for i, p := range w.panes {
			games[i] = p.game
		}
		w.opts.OnFrame(now, games)
	}
	if w.warmedUp && w.opts.FrameReport > 0 {
		for _, p := range w.panes {
			p.noteWait()
		}
	}
	return nil
}
