package render

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"tanknet/client"
	"tanknet/render/view"
)

// goodbyeWait bounds how long Run waits for a session's reader after saying goodbye.
const goodbyeWait = 2 * time.Second

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

// openWindow sets up the window opts describe, before ebiten.RunGame opens it.
func openWindow(opts Options) {
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
}

// run opens the window and plays until the game ends.
func (g *window) run() error {
	opts := g.opts
	openWindow(opts)
	err := ebiten.RunGame(g)
	g.stopRunners()
	for _, p := range g.panes {
		err = errors.Join(err, p.game.StopRecording())
	}
	switch {
	case opts.FrameReport > 0 && g.reported:
		var waits []view.WaitSummary
		for _, p := range g.panes {
			w := view.SummarizeWaits(p.reportName, p.waits.Waits())
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
	noun := "tanks"
	if tanks == 1 {
		noun = "tank"
	}
	fmt.Fprintf(w, "tankclient: after the first %v: %s; %d %s; prediction steps dropped %d\n",
		statsWarmUp, g.frameStats.Summary(), tanks, noun, g.droppedSteps()-g.dropBase)
	if g.shot.done && g.shot.missed && g.opts.ScreenshotWhen != view.MomentAny {
		fmt.Fprintf(w, "tankclient: %s: the moment %q did not come within %v of the frames; the screenshot shows the window when the wait ran out\n",
			g.shot.path, g.opts.ScreenshotWhen, g.shot.wait().Round(time.Millisecond))
	}
}
