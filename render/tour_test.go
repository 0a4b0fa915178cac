package render

import (
	"strings"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/netcode"
	"tanknet/render/view"
)

// TestTourOnTheLiveWindow: the tour in one player's window shows the scenes it can (none
// about contact), with their solo captions at the top of the HUD, and changes nothing but
// the pane's switches.
func TestTourOnTheLiveWindow(t *testing.T) {
	out, opts := report()
	m := &liveWindow{live: live{clock: client.NewClock(time.Now())}}
	w := testWindow(t, m, opts, livePane("", "player", 1, m.clock, opts))
	w.tour.start(w)
	s, n, of, ok := w.tour.tour.Scene()
	if !ok || n != 1 || of != 8 {
		t.Fatalf("scene %d of %d (running %v), want 1 of the 8 without contact", n, of, ok)
	}
	if lines := w.tour.lines(w); !strings.Contains(lines[2].Text, strings.Join(s.Solo, " ")) || m.tourLegend() {
		t.Error("the single window's tour does not show its solo caption in the HUD")
	}
	if w.panes[0].tech != s.Techniques {
		t.Errorf("scene 1 set %+v, want %+v", w.panes[0].tech, s.Techniques)
	}
	w.tour.keys(w, false, false, true)
	if w.tour.tour.Running() || !strings.Contains(out.String(), "tour restored pane 0") {
		t.Errorf("O did not end the tour and report what it restored: %q", out)
	}
}

// TestTourOnTheDemo: on the demo the tour holds the bots' fire, slows the match for a scene
// that asks, switches the room's contact for a contact scene, and puts every one of them
// back when it ends.
func TestTourOnTheDemo(t *testing.T) {
	_, opts := report()
	td := newTestDemo(t, opts)
	w := td.w
	w.tour.start(w)
	if _, _, of, _ := w.tour.tour.Scene(); of != len(view.TourScenes) || !td.bots.held {
		t.Fatalf("%d scenes, bots holding fire %v; want all %d, held", of, td.bots.held, len(view.TourScenes))
	}
	slowAt, contactAt := 0, 0
	for i, s := range view.TourScenes {
		if s.Slow > 1 && slowAt == 0 {
			slowAt = i + 1
		}
		if s.Contact != netcode.ContactUnspecified && contactAt == 0 {
			contactAt = i + 1
		}
	}
	w.tour.tour.StartAt(slowAt)
	w.tour.applyScene(w)
	if td.slowFactor() != view.TourScenes[slowAt-1].Slow {
		t.Errorf("scene %d: slow %d", slowAt, td.slowFactor())
	}
	w.tour.tour.StartAt(contactAt)
	w.tour.applyScene(w)
	if len(td.asked) != 1 || td.asked[0] != view.TourScenes[contactAt-1].Contact {
		t.Errorf("scene %d asked for contact %v", contactAt, td.asked)
	}
	w.tour.keys(w, false, false, true)
	found := w.panes[0].game.Rules().Contact // the quiet server never switched it
	if found == netcode.ContactUnspecified || td.slowFactor() != 1 || td.bots.held || td.asked[len(td.asked)-1] != found {
		t.Errorf("after the tour: slow %d, bots holding %v, contact asked %v; want 1, false, %v", td.slowFactor(), td.bots.held, td.asked, found)
	}
}
