package wire

import (
	"testing"

	"tanknet/netcode"
)

// A delta that moves a tank's heading off the grid's [-HeadingSteps/2, HeadingSteps/2]
// loses that tank: the chunk is not whole, and the tanks rebuilt within the range are used.
func TestBaselines_HeadingOffTheGridLosesTheTank(t *testing.T) {
	const base, tick = 10, 11
	for _, tc := range []struct {
		name    string
		start   int32
		change  int32
		whole   bool
		heading int32
	}{
		{"up to the top edge", 32000, 768, true, netcode.HeadingSteps / 2},
		{"down to the bottom edge", -32000, -768, true, -netcode.HeadingSteps / 2},
		{"across the turn, as the server sends it", 32767, -65534, true, -32767},
		{"one past the top", 32000, 769, false, 0},
		{"far past the top", 32000, 8000, false, 0},
		{"one past the bottom", -32000, -769, false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b Baselines
			b.Record(base, Tank{ID: 4, Grid: netcode.GridPose{X: 100, Y: 100, Heading: tc.start}})
			b.Record(base, Tank{ID: 9, Grid: netcode.GridPose{X: 300, Y: 300, Heading: 0}})
			snap := &Snapshot{Header: Header{Tick: tick}, Baseline: base, Moved: []int32{4, 1, 0, tc.change, 5, 0, 1, 2}}
			var got []Tank
			whole := b.Tanks(snap, func(tk Tank) { got = append(got, tk) })
			if whole != tc.whole {
				t.Fatalf("whole = %v, want %v", whole, tc.whole)
			}
			want := 1
			if tc.whole {
				want = 2
			}
			if len(got) != want {
				t.Fatalf("used %d tanks (%+v), want %d", len(got), got, want)
			}
			last := got[len(got)-1]
			if last.ID != 9 || last.Grid != (netcode.GridPose{X: 300, Y: 301, Heading: 2}) {
				t.Errorf("the other tank rebuilt as %+v", last)
			}
			if tc.whole && (got[0].ID != 4 || got[0].Grid.Heading != tc.heading) {
				t.Errorf("tank 4 rebuilt as %+v, want heading %d", got[0], tc.heading)
			}
		})
	}
}
