package view

import (
	"slices"
	"testing"

	"tanknet/linksim"
)

// TestTour_EndToEnd walks the tour from its first scene to its end: every scene sets a real
// preset on both panes and has a caption, back and next move one scene, and the scene that
// needs the input buffer is shown only to a window that has it.
func TestTour_EndToEnd(t *testing.T) {
	for _, features := range [][]string{nil, {FeatureInputBuffer}, {FeatureInputBuffer, FeatureContact}} {
		tour := NewTour(TourScenes, features...)
		if tour.Running() {
			t.Fatal("a new tour is running before Start")
		}
		tour.Start()
		var titles []string
		for steps := 0; tour.Running(); steps++ {
			if steps > 2*len(TourScenes) {
				t.Fatal("the tour does not end")
			}
			s, n, of, ok := tour.Scene()
			if !ok || n != len(titles)+1 {
				t.Fatalf("scene %d of %d (ok %v), want scene %d", n, of, ok, len(titles)+1)
			}
			for _, net := range []string{s.NearNet, s.FarNet} {
				if !slices.Contains(linksim.PresetNames(), net) {
					t.Errorf("%s: network %q is not a preset", s.Title, net)
				}
			}
			if len(s.Caption) == 0 || len(s.Solo) == 0 {
				t.Errorf("%s: no caption for the demo or for a single window", s.Title)
			}
			titles = append(titles, s.Title)
			if n == 2 { // back and forth once
				tour.Back()
				if _, back, _, _ := tour.Scene(); back != 1 {
					t.Errorf("Back from scene 2 shows scene %d, want 1", back)
				}
				tour.Next()
			}
			tour.Next()
		}
		want := 0
		for _, s := range TourScenes {
			if s.Requires == "" || slices.Contains(features, s.Requires) {
				want++
			}
		}
		if all := slices.Contains(features, FeatureInputBuffer) && slices.Contains(features, FeatureContact); want == len(TourScenes) != all {
			t.Errorf("features %v: %d of %d scenes to show, want every scene exactly when the window has the input buffer and the contact switch", features, want, len(TourScenes))
		}
		if len(titles) != want {
			t.Errorf("features %v: the tour showed %d scenes %q, want %d", features, len(titles), titles, want)
		}
		if _, _, _, ok := tour.Scene(); ok || tour.Next() {
			t.Error("the tour still shows a scene after the last")
		}
	}
	first := TourScenes[0].Techniques
	if first.Prediction || !first.Interpolation {
		t.Errorf("the first scene sets %+v, want prediction off to show what it fixes", first)
	}
}
