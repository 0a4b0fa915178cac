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
	m := &liveWindow{live: live{clock: client.NewClock(time.Now())}, steering: keyboard{opts.Touch}}
	if opts.Bot != 0 {
		m.steering = newAutopilot(opts.Bot, keyboard{opts.Touch})
	}
	g, err := newWindow(ctx, sess.Welcome().Arena, opts, m)
	if err != nil {
		return err
	}
	g.panes = []*clientPane{newClientPane("", "player", m.clock.Link(sess), opts, opts.Net, time.Now())}
	return g.run()
}

// liveWindow is the mode of one player's window on a session (Run; the browser page too): the
// keys drive its tank, or Options.Bot's driver does.
type liveWindow struct {
	onePane
	fixed
	live
	steering  steering
	fromLobby bool // started from the lobby: Esc goes back there, F10 quits
}

func (m *liveWindow) drive(w *window) { m.steering.steer(w.panes[0]) }

// help is the single window's key help, with Esc and F10 as a match from the lobby has them.
func (m *liveWindow) help() []view.Line {
	if m.fromLobby {
		return view.LobbyMatchHelp()
	}
	return m.onePane.help()
}

// steering is what drives the live window's tank: the keys, or a bot's driver.
type steering interface {
	steer(p *clientPane)
}

// keyboard makes WASD and the arrows alike drive the tank, and Space fire; a touch pad, if
// there is one, adds its stick to the keys' input (clamped) and fires too.
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
// driver per prediction step taken, as client.RunBot does. Space (and a touch pad's fire
// button) still fires.
type autopilot struct {
	keys   keyboard
	driver *client.Driver
	next   netcode.Input // the driver's current decision
	steps  int           // prediction steps the driver has decided
}

func newAutopilot(seed uint64, keys keyboard) *autopilot {
	d := client.NewDriver(seed)
	return &autopilot{keys: keys, driver: d, next: d.Next()}
}

func (a *autopilot) steer(p *clientPane) {
	a.keys.steer(p)
	for n := p.game.Stats().InputsSent; a.steps < n; a.steps++ {
		a.next = a.driver.Next()
	}
	p.input = a.next
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

// begin starts the panes' games at the first frame. Opening the window takes a moment after
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
	}
	return nil
}

// step runs every pane's game one frame on the clock, until a session ends; then tells
// Options.OnFrame, and keeps the input waits of a frame report.
func (l *live) step(w *window, now time.Time) error {
	if w.failure == nil {
		for _, p := range w.panes {
			if err := p.update(l.clock.At(now), &w.arena); err != nil {
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
