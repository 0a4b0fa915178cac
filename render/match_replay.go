package render

import (
	"context"
	"fmt"
	"time"

	"tanknet/client"
	"tanknet/render/matchplay"
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
	g, err := newWindow(ctx, set.Near.Game().Welcome().Arena, opts)
	if err != nil {
		return err
	}
	g.playback = &replayControl{pb: set.Near, follow: set.Follow}
	g.truth = func(dst *Truth) { truthOf(set, dst) }
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
		g.playback.lastSeek = time.Since(began)
	}
	err = g.run()
	if opts.Report != nil {
		n, of := set.Near.Frame()
		fmt.Fprintf(opts.Report, "tankclient: replay at frame %d of %d, %.3f s of %.3f s\n", n, of, set.Near.Position().Seconds(), set.Near.Duration().Seconds())
		fn, fof := set.Far.Frame()
		fmt.Fprintf(opts.Report, "tankclient: replay far player at frame %d of %d; server tick %d; last seek %.1f ms\n", fn, fof, set.Tick(), float64(g.playback.lastSeek)/float64(time.Millisecond))
	}
	return err
}

// newMatchPane is one player's pane of a recording set, titled like the demo's.
func newMatchPane(role string, game *client.Game, opts Options) *clientPane {
	p := newReplayPane(game, opts.Techniques)
	p.role = role
	return p
}

// followStep keeps pane i on the Game its recording plays (a seek back replays from the
// start through a new one) and lets it follow what the frame changed, as live.
func (g *window) followStep(i int, game *client.Game) {
	p := g.panes[i]
	if p.game != game {
		np := newReplayPane(game, p.tech)
		np.role = p.role
		g.panes[i], p = np, np
		g.viewChanged = true
	}
	p.input = game.Input()
	p.observe(&g.arena)
}

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
