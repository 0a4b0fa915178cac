package recording

import "testing"

// Report.String says what verify found in each case, and never claims a keyframe matched
// when the recording ended before one.
func TestReport_String(t *testing.T) {
	d := &Divergence{Tick: 80, Player: 3, Field: "x", Want: "1", Got: "2"}
	for _, c := range []struct {
		name string
		r    Report
		want string
	}{
		{"exact", Report{Ticks: 80}, "exact"},
		{"a keyframe names it", Report{FirstTick: 73, First: d}, "differs from tick 73 (state hash); first keyframe after: tick 80 player 3 x: 1 vs 2 (recorded vs re-simulated)"},
		{"at the keyframe itself", Report{FirstTick: 80, First: d}, "differs at tick 80 player 3 x: 1 vs 2 (recorded vs re-simulated)"},
		{"came back by the next keyframe", Report{FirstTick: 73, CameBack: true}, "differs from tick 73 (state hash), but the next keyframe matches"},
		{"no keyframe after it", Report{FirstTick: 73}, "differs from tick 73 (state hash); the recording ends before a keyframe names the player and field"},
	} {
		if got := c.r.String(); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
