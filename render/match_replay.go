package render

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"tanknet/client"
	"tanknet/render/matchplay"
	"tanknet/render/view"
)

// RunMatchReplay opens the demo's three panes on a recording set (tankclient -replay FILE,
// where FILE-near, FILE-far and FILE-server are the files -demo -record FILE wrote): the
// near and far players' panes replayed through their own Games as a single replay is, and
// between them the server's truth rebuilt from its recording at the same moment
// (package matchplay says which tick that is). The three share one playback clock and the
// playback bar of RunReplay, whose keys and mouse work the same. It must be called from the
// main goroutine.
//
// at, if positive, opens the set paused at that moment.
func RunMatchReplay(ctx context.Context, set *matchplay.Set, at time.Duration, opts Options) error {
	if err := opts.Validate(); err != nil {
		return err
	}
	m := newMatchReplay(set)
	g, err := newWindow(ctx, set.Near.Game().Welcome().Arena, opts, m)
	if err != nil {
		return err
	}
	g.panes = []*clientPane{
		newMatchPane("NEAR PLAYER (recorded)", set.Near.Game(), opts),
		newMatchPane("FAR PLAYER (recorded)", set.Far.Game(), opts),
	}
	for i, pb := range []*client.Playback{set.Near, set.Far} {
		pb.OnStep = func(game *client.Game) { g.followStep(i, game) }
	}
	if at > set.Near.Duration() {
		return fmt.Errorf("-replay-at %v is past the recording's end: the near player's is %v long", at, set.Near.Duration().Round(time.Millisecond))
	}
	if at > 0 {
		set.Near.Paused = true
		began := time.Now()
		if err := set.Seek(at); err != nil {
			return err
		}
		m.bar.lastSeek = time.Since(began)
	}
	err = g.run()
	if opts.Report != nil {
		n, of := set.Near.Frame()
		fmt.Fprintf(opts.Report, "tankclient: replay at frame %d of %d, %.3f s of %.3f s\n", n, of, set.Near.Position().Seconds(), set.Near.Duration().Seconds())
		fn, fof := set.Far.Frame()
		fmt.Fprintf(opts.Report, "tankclient: replay far player at frame %d of %d; server tick %d; last seek %.1f ms\n", fn, fof, set.Tick(), float64(m.bar.lastSeek)/float64(time.Millisecond))
	}
	return err
}

// newMatchPane is one player's pane of a recording set, titled like the demo's.
func newMatchPane(role string, game *client.Game, opts Options) *clientPane {
	p := newReplayPane(game, opts.Techniques)
	p.role = role
	return p
}

// matchReplay is the mode of a recording set's window: the demo's three panes, the players'
// driven by their recordings and the server's rebuilt from its own, with the playback bar
// of a client replay under them.
type matchReplay struct {
	threePanes
	fixed
	bar    replayControl
	server serverPane
}

func newMatchReplay(set *matchplay.Set) *matchReplay {
	m := &matchReplay{threePanes: threePanes{below: ReplayBarHeight}, bar: replayControl{pb: set.Near, follow: set.Follow}}
	m.server = serverPane{truth: func(dst *Truth) { truthOf(set, dst) },
		legend: func(t *Truth) []view.Line { return view.ReplaySetLegend(len(t.IDs), t.wrecks()) }}
	return m
}

func (*matchReplay) begin(*window) error { return nil }
func (*matchReplay) drive(*window)       {} // the recordings drive the panes; the arrows and Space play them

func (m *matchReplay) step(_ *window, now time.Time) error {
	m.bar.update(now)
	return nil
}

// draw draws the server pane, at real time: a recording set replays at the speed the bar
// sets, whatever the speed it was played at.
func (m *matchReplay) draw(w *window, dst *ebiten.Image, full bool) {
	w.drawServerPane(dst, w.layout[view.ServerPane], full, &m.server, 1)
}

// drawOver draws the playback bar, with the server's tick.
func (m *matchReplay) drawOver(w *window, dst *ebiten.Image) {
	w.drawReplayBar(dst, &m.bar, fmt.Sprintf("  server tick %d", m.server.state.Tick))
}

func (m *matchReplay) reportShot(_ *window, out io.Writer) { m.server.report(out) }

// truthOf copies the set's server truth into dst, the server pane's state, when its tick
// changed.
func truthOf(set *matchplay.Set, dst *Truth) {
	if dst.Tick == set.Tick() && len(dst.IDs) == len(set.Truth()) {
		return
	}
	dst.Tick = set.Tick()
	dst.IDs, dst.Poses, dst.Combat = dst.IDs[:0], dst.Poses[:0], dst.Combat[:0]
	for _, t := range set.Truth() {
		dst.IDs = append(dst.IDs, t.ID)
		dst.Poses = append(dst.Poses, t.Pose)
		dst.Combat = append(dst.Combat, t.TankCombat)
	}
}
