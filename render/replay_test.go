package render

import (
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"tanknet/client"
)

// TestReplay: a client replay's mode plays its recording on the wall clock, keeps the pane
// on the Game the recording plays (a new one after a seek back), leaves the pane's inputs to
// the recording and its U key alone, and keeps the playback bar's height under the pane.
func TestReplay(t *testing.T) {
	_, opts := report()
	pb := testSet(t).Near
	m := &replay{onePane: onePane{below: ReplayBarHeight}, bar: replayControl{pb: pb}}
	w := testWindow(t, m, opts, newReplayPane(pb.Game(), opts.Techniques))
	pb.OnStep = func(game *client.Game) { w.followStep(0, game) }
	began := time.Now()
	for i := range 30 {
		if err := m.step(w, began.Add(time.Duration(i)*time.Second/60)); err != nil {
			t.Fatal(err)
		}
	}
	if m.bar.err != nil || pb.Position() <= 0 {
		t.Fatalf("after half a second: position %v, error %v", pb.Position(), m.bar.err)
	}
	first := w.panes[0]
	if _, err := pb.Seek(0); err != nil {
		t.Fatal(err)
	}
	if w.panes[0].game != pb.Game() || !w.viewChanged {
		t.Error("after a seek back the pane does not show the new Game, or the frame is not drawn whole")
	}
	if w.panes[0] == first || !w.panes[0].recorded {
		t.Error("the pane after the seek is not a new recorded pane")
	}
	arrival := w.panes[0].game.InputOnArrival()
	w.panes[0].switchKey(keys(ebiten.KeyU))
	if w.panes[0].game.InputOnArrival() != arrival {
		t.Error("U switched what the recorded client asked for")
	}
	ps := m.layout(w, screen, nil)
	if len(ps) != 1 || ps[0].Bounds.Y+ps[0].Bounds.H > float64(screen.Dy()-ReplayBarHeight) {
		t.Errorf("layout %+v reaches into the playback bar", ps)
	}
}
