package render

import (
	"bytes"
	"slices"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/render/view"
)

// TestLiveWindow: the live window's mode starts its one pane's game afresh at the first
// frame, recording it; steps it on the clock and hands it to OnFrame; lays it out alone; and
// gives the tour nothing to change beyond the pane.
func TestLiveWindow(t *testing.T) {
	_, opts := report()
	var rec bytes.Buffer
	var seen []*client.Game
	opts.Record = append(opts.Record, &rec)
	opts.OnFrame = func(_ time.Time, games []*client.Game) { seen = games }
	m := &liveWindow{live: live{clock: client.NewClock(time.Now())}, steering: keyboard{}}
	p := livePane("", "player", 1, m.clock, opts)
	w := testWindow(t, m, opts, p)
	joined := p.game
	if err := m.begin(w); err != nil {
		t.Fatal(err)
	}
	if p.game == joined || p.game.Link() != joined.Link() {
		t.Error("begin did not start a new game on the pane's link")
	}
	if err := m.step(w, time.Now()); err != nil || w.failure != nil {
		t.Fatalf("step: %v, failure %v", err, w.failure)
	}
	if len(seen) != 1 || seen[0] != p.game {
		t.Errorf("OnFrame saw %v, want the pane's game", seen)
	}
	if err := p.game.StopRecording(); err != nil || rec.Len() == 0 {
		t.Errorf("recording: %v, %d bytes", err, rec.Len())
	}
	if got := m.layout(w, screen, nil); len(got) != 1 {
		t.Errorf("layout has %d panes, want 1", len(got))
	}
	if m.paneIndex(0) != 0 || len(m.targets(w)) != 1 || !slices.Equal(m.help(), view.Help(false)) {
		t.Error("one pane: index 0, the keys' target, the single window's help")
	}
	if _, ok := m.far(w); ok {
		t.Error("the live window has a far player")
	}
	if _, _, ok := m.actors(w); ok {
		t.Error("the live window has players the tour drives")
	}
	m.setSlow(w, 4)
	if m.slowFactor() != 1 {
		t.Error("the live window slowed down: only the demo owns its server's clock")
	}
	if !slices.Equal(m.features(), []string{view.FeatureInputBuffer}) {
		t.Errorf("features %v, want the input buffer alone", m.features())
	}
}

// TestAutopilot: Options.Bot's autopilot puts its driver's decision in place of the keys',
// the first before any step is taken, as a fresh driver of the same seed decides it.
func TestAutopilot(t *testing.T) {
	_, opts := report()
	p := livePane("", "player", 1, client.NewClock(time.Now()), opts)
	a := newAutopilot(7, keyboard{})
	a.steer(p)
	if want := client.NewDriver(7).Next(); p.input != want || a.steps != 0 {
		t.Errorf("input %+v after %d steps, want the driver's first decision %+v", p.input, a.steps, want)
	}
}
