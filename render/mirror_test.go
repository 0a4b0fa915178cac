package render

import (
	"bytes"
	"os"
	"testing"
	"time"

	"tanknet/client"
)

// TestMirror: the mirror mode steps its pane to every frame the worker handed over, keeps
// the pane on the mirrored Game, sends the controls held when they change (lag compensation
// on, as a live pane starts), and ends the window when the worker's recording ends.
func TestMirror(t *testing.T) {
	_, opts := report()
	data, err := os.ReadFile("matchplay/testdata/b-near.tnrec")
	if err != nil {
		t.Fatal(err)
	}
	p, err := client.OpenReplay(bytes.NewReader(data), time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.StepToEnd(); err != nil {
		t.Fatal(err)
	}
	mr := client.NewMirror(time.Now())
	mr.Add(data, p.Frames())
	if _, err := mr.Step(nil); err != nil {
		t.Fatal(err)
	}
	var sent []Controls
	m := &mirror{m: mr, send: func(c Controls) { sent = append(sent, c) }}
	w := testWindow(t, m, opts, newReplayPane(mr.Game(), opts.Techniques))
	now := time.Now()
	if err := m.step(w, now); err != nil || w.failure != nil {
		t.Fatalf("step: %v, failure %v", err, w.failure)
	}
	if mr.Frames() != p.Frames() || w.panes[0].game != mr.Game() {
		t.Fatalf("the pane is at frame %d of %d, on the mirrored Game %v", mr.Frames(), p.Frames(), w.panes[0].game == mr.Game())
	}
	if got, want := w.panes[0].game.Stats(), p.Game().Stats(); got != want {
		t.Errorf("the mirrored Game's stats %+v, the recording's %+v", got, want)
	}
	m.drive(w)
	m.drive(w)
	if len(sent) != 1 || !sent[0].LagComp || sent[0].Fire {
		t.Errorf("two ticks with nothing held sent %+v; want one message: no fire, lag compensation on", sent)
	}
	mr.End(nil)
	if err := m.step(w, now.Add(time.Second)); err != nil || w.failure == nil {
		t.Errorf("after the recording's end: step %v, failure %v; want the window to end", err, w.failure)
	}
}
