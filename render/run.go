package render

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"tanknet/client"
)

// goodbyeWait bounds how long Run waits for the session's reader after saying goodbye.
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
	readerDone := make(chan error, 1)
	go func() { readerDone <- sess.Run() }()
	defer func() {
		_ = sess.Close("player quit")
		select {
		case <-readerDone:
		case <-time.After(goodbyeWait):
		}
	}()

	g, err := newGame(ctx, sess, opts, time.Now())
	if err != nil {
		return err
	}
	w, h := opts.size()
	title := opts.Title
	if title == "" {
		title = "tanknet"
	}
	ebiten.SetWindowTitle(title)
	ebiten.SetWindowSize(w, h)
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	ebiten.SetWindowClosingHandled(true) // Update sees the close, to exit with the right error
	ebiten.SetTPS(60)
	ebiten.SetVsyncEnabled(true)
	ebiten.SetScreenClearedEveryFrame(false) // every Draw starts by copying the backdrop over all of it
	err = ebiten.RunGame(g)
	if opts.Report != nil {
		g.report(opts.Report)
	}
	return err
}

// report writes how fast the window drew and whether the prediction kept up.
func (g *Game) report(w io.Writer) {
	dropped := 0
	if l := g.game.Local(); l != nil {
		dropped = l.Counters().DroppedSteps
	}
	fmt.Fprintf(w, "tankclient: %s; %d tanks; prediction steps dropped %d\n",
		g.frameStats.Summary(), len(g.game.Remotes())+1, dropped)
}
