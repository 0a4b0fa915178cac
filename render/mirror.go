package render

import (
	"context"
	"errors"
	"io"
	"time"

	"tanknet/client"
	"tanknet/netcode"
)

// Controls are what a mirrored window's player holds, for the Game it mirrors (RunMirror):
// the driving input, whether fire is held, and whether its shots ask for lag compensation
// (key L).
type Controls struct {
	Input   netcode.Input
	Fire    bool
	LagComp bool
}

// RunMirror opens the window on a Game that runs elsewhere: a browser page's worker, which
// keeps the session, its network and the prediction clock off the page's frame loop and
// hands over the Game's recording as it writes it (client.Mirror). Every tick the window
// steps m to the newest frame received and draws its Game, which is frame for frame the
// worker's; the keys (and the touch pad) are read as in a live window and given to send,
// which takes them to the worker. Under Options.Bot the worker drives, and send still
// carries fire. m must already have its recording's header (m.Game() not nil).
//
// Options.OnFrame is called every tick with the mirrored Game, as a live window's is.
//
// RunMirror returns nil after a quit or a cancelled ctx, and the recorded session's end
// (shown for a few seconds first) when the worker's session ended. It must be called from
// the main goroutine.
func RunMirror(ctx context.Context, m *client.Mirror, send func(Controls), opts Options) error {
	if err := opts.Validate(); err != nil {
		return err
	}
	if _, err := m.Step(nil); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	game := m.Game()
	if game == nil {
		return errors.New("render: the mirrored recording has not begun")
	}
	mode := &mirror{m: m, send: send}
	g, err := newWindow(ctx, game.Welcome().Arena, opts, mode)
	if err != nil {
		return err
	}
	p := newReplayPane(game, opts.Techniques)
	g.panes = []*clientPane{p}
	return g.run()
}

// mirror is the mode of a window on a mirrored Game (RunMirror): one pane, which the
// recording drives, and keys that go to the Game's owner rather than to it.
type mirror struct {
	onePane
	fixed
	m    *client.Mirror
	send func(Controls)
	sent Controls
	told bool
}

func (*mirror) begin(*window) error { return nil }

func (m *mirror) drive(w *window) {
	p := w.panes[0]
	keyboard{w.opts.Touch}.steer(p)
	c := Controls{Input: p.input, Fire: p.firing, LagComp: p.lagComp}
	if !m.told || c != m.sent {
		m.send(c)
		m.sent, m.told = c, true
	}
}

// step brings the pane to the newest frame the worker recorded; the end of its session ends
// the window as a live one's does.
func (m *mirror) step(w *window, now time.Time) error {
	if w.failure != nil {
		return nil
	}
	_, err := m.m.Step(func(game *client.Game) { w.followStep(0, game) })
	if w.opts.OnFrame != nil {
		w.opts.OnFrame(now, []*client.Game{w.panes[0].game})
	}
	switch {
	case errors.Is(err, io.EOF):
		w.failure, w.failAt = errors.New("render: the game's worker stopped"), now
	case err != nil:
		w.failure, w.failAt = err, now
	}
	return nil
}
