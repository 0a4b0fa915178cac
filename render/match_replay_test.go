package render

import (
	"testing"
	"time"

	"tanknet/client"
	"tanknet/render/view"
)

// TestMatchReplay: a recording set's mode plays both players and the server on the near
// player's clock, reads the server pane's truth from the set, lays out the demo's three
// panes over the playback bar, and counts the far player for the tour without driving it.
func TestMatchReplay(t *testing.T) {
	_, opts := report()
	set := testSet(t)
	m := newMatchReplay(set)
	w := testWindow(t, m, opts, newMatchPane("NEAR PLAYER (recorded)", set.Near.Game(), opts),
		newMatchPane("FAR PLAYER (recorded)", set.Far.Game(), opts))
	for i, pb := range []*client.Playback{set.Near, set.Far} {
		pb.OnStep = func(game *client.Game) { w.followStep(i, game) }
	}
	began := time.Now()
	for i := range 60 {
		if err := m.step(w, began.Add(time.Duration(i)*time.Second/60)); err != nil {
			t.Fatal(err)
		}
	}
	if m.bar.err != nil || set.Far.Position() <= 0 {
		t.Fatalf("after a second: far player at %v, error %v", set.Far.Position(), m.bar.err)
	}
	m.server.truth(&m.server.state)
	if m.server.state.Tick != set.Tick() || len(m.server.state.IDs) != len(set.Truth()) {
		t.Errorf("server pane at tick %d with %d tanks, the set at %d with %d", m.server.state.Tick, len(m.server.state.IDs), set.Tick(), len(set.Truth()))
	}
	ps := m.layout(w, screen, nil)
	for _, p := range ps {
		if p.Bounds.Y+p.Bounds.H > float64(screen.Dy()-ReplayBarHeight) {
			t.Errorf("pane %+v reaches into the playback bar", p.Bounds)
		}
	}
	if len(ps) != 3 || m.paneIndex(1) != view.FarPane {
		t.Errorf("layout: %d panes, far player at %d", len(ps), m.paneIndex(1))
	}
	if far, ok := m.far(w); !ok || far != w.panes[1] {
		t.Error("the tour does not count the recorded far player")
	}
	if _, _, ok := m.actors(w); ok || m.slowFactor() != 1 {
		t.Error("the tour drives recorded players, or slows a replay")
	}
}
