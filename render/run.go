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

// goodbyeWait bounds how long Run waits for a session's reader after saying goodbye.
const goodbyeWait = 2 * time.Second

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
	g, err := newWindow(ctx, sess.Welcome().Arena, opts)
	if err != nil {
		return err
	}
	g.panes = []*clientPane{newClientPane("", driveAll, g.clock.Link(sess), opts, opts.Net, time.Now())}
	return g.run()
}

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
	// Bots, if set, adds and removes the demo's bots from the keyboard (+ and -).
	Bots Bots
	// Clock, if set, is the game time the players (and the bots) run on, and ServerRate sets
	// the rate of the server's clock: with both, M slows the whole demo (slowmo.go).
	Clock      *client.Clock
	ServerRate func(rate float64)
	// SetContact, if set, switches the contact mode of the demo's room during the match
	// (server.Server.SetContact): C cycles it, predicted, server, off (contact.go).
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
	if opts.Near == nil || opts.Far == nil || opts.Truth == nil {
		return errors.New("render: the demo needs two sessions and the server's truth")
	}
	stopNear, stopFar := runSession(opts.Near), runSession(opts.Far)
	defer stopFar()
	defer stopNear()
	if err := opts.Validate(); err != nil {
		return err
	}
	g, err := newWindow(ctx, opts.Near.Welcome().Arena, opts.Options)
	if err != nil {
		return err
	}
	now := time.Now()
	g.truth = opts.Truth
	g.bots = opts.Bots
	g.setContact = opts.SetContact
	if opts.Clock != nil && opts.ServerRate != nil {
		g.clock, g.serverRate = opts.Clock, opts.ServerRate
	}
	g.panes = []*clientPane{
		newClientPane("NEAR PLAYER (WASD)", driveWASD, g.clock.Link(opts.Near), opts.Options, opts.NearNet, now),
		newClientPane("FAR PLAYER (arrows)", driveArrows, g.clock.Link(opts.Far), opts.Options, opts.FarNet, now),
	}
	return g.run()
}

// runSession starts sess's reader and returns what closes it: a goodbye, then a bounded
// wait for the reader.
func runSession(sess *client.Session) (stop func()) {
	readerDone := make(chan error, 1)
	go func() { readerDone <- sess.Run() }()
	return func() {
		_ = sess.Close("player quit")
		select {
		case <-readerDone:
		case <-time.After(goodbyeWait):
		}
	}
}

// run opens the window and plays until the game ends.
func (g *window) run() error {
	opts := g.opts
	w, h := opts.size()
	title := opts.Title
	if title == "" {
		title = "tanknet"
	}
	ebiten.SetWindowTitle(title)
	ebiten.SetWindowSize(w, h)
	if opts.Position != nil {
		ebiten.SetWindowPosition(opts.Position.X, opts.Position.Y)
	}
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	ebiten.SetWindowClosingHandled(true) // Update sees the close, to exit with the right error
	ebiten.SetTPS(60)
	ebiten.SetVsyncEnabled(true)
	ebiten.SetScreenClearedEveryFrame(false) // every Draw repaints or repairs what it changes
	err := ebiten.RunGame(g)
	for _, p := range g.panes {
		err = errors.Join(err, p.game.StopRecording())
	}
	switch {
	case opts.FrameReport > 0 && g.reported:
		var waits []view.WaitSummary
		for _, p := range g.panes {
			w := view.SummarizeWaits(p.reportName(), p.waits)
			_, resyncs := p.game.Dilation()
			w.Resyncs = resyncs - p.resyncBase
			waits = append(waits, w)
		}
		fmt.Fprintln(opts.Report, g.frameStats.Summary().JSON(waits...))
	case opts.FrameReport > 0:
		err = errors.Join(err, errors.New("render: the window closed before the frame report had its frames"))
	case opts.Report != nil:
		g.report(opts.Report)
	}
	return err
}

// report writes how fast the window drew after its first second (statsWarmUp), and how many
// prediction steps were dropped in that time.
func (g *window) report(w io.Writer) {
	tanks := 0
	for _, p := range g.panes {
		tanks = max(tanks, len(p.game.Remotes())+1)
	}
	fmt.Fprintf(w, "tankclient: after the first %v: %s; %d tanks; prediction steps dropped %d\n",
		statsWarmUp, g.frameStats.Summary(), tanks, g.droppedSteps()-g.dropBase)
	if g.shot.done && g.shot.missed && g.opts.ScreenshotWhen != view.MomentAny {
		fmt.Fprintf(w, "tankclient: %s: the moment %q did not come within %v of the frames; the screenshot shows the window when the wait ran out\n",
			g.shot.path, g.opts.ScreenshotWhen, g.shot.wait().Round(time.Millisecond))
	}
}
