package view

import (
	"testing"

	"tanknet/netcode"
)

// TestTickTrail: a tank driven one step a tick moves evenly; one that stands a tick and
// lurches two the next is uneven in both; a respawn is a jump, not motion; the trail keeps
// TrailLen ticks and ignores old ones.
func TestTickTrail(t *testing.T) {
	var tr TickTrail
	tr.Follow(7, 0)
	x := 0.0
	for tick := uint32(1); tick <= 11; tick++ {
		tr.Add(tick, netcode.Pose{X: x})
		x += 0.25
	}
	if r, ok := tr.Ratio(); !ok || r != 0 || tr.Moving != 9 {
		t.Fatalf("even motion: ratio %v (ok %v) over %d moving ticks, want 0 over 9 (the first step has none before it)", r, ok, tr.Moving)
	}
	// Stand one tick, then two steps at once: two uneven ticks (the stand and the lurch),
	// then the next even step is uneven against the lurch too.
	tr.Add(12, netcode.Pose{X: x - 0.25})
	tr.Add(13, netcode.Pose{X: x + 0.25})
	tr.Add(14, netcode.Pose{X: x + 0.5})
	if tr.Uneven != 3 || tr.Moving != 12 {
		t.Errorf("after a stand and a lurch: %d uneven of %d moving, want 3 of 12", tr.Uneven, tr.Moving)
	}
	tr.Add(15, netcode.Pose{X: 30}) // respawned across the arena
	tr.Add(16, netcode.Pose{X: 30.25})
	tr.Add(17, netcode.Pose{X: 30.5})
	pts := tr.Points()
	if !pts[len(pts)-3].Jump || tr.Moving != 13 || tr.Uneven != 3 {
		t.Errorf("a respawn: jump %v, %d uneven of %d moving; want a jump, not counted, and the two steps after it one even tick", pts[len(pts)-3].Jump, tr.Uneven, tr.Moving)
	}
	tr.Add(3, netcode.Pose{X: 99})
	if got := tr.Points()[len(tr.Points())-1].Tick; got != 17 {
		t.Errorf("an old tick was added: newest %d, want 17", got)
	}
	for tick := uint32(18); tick < 100; tick++ {
		tr.Add(tick, netcode.Pose{X: 30})
	}
	if n := len(tr.Points()); n != TrailLen {
		t.Errorf("the trail keeps %d ticks, want %d", n, TrailLen)
	}
	tr.Follow(8, 3)
	if tr.ID() != 8 || len(tr.Points()) != 0 || tr.Moving != 0 {
		t.Errorf("Follow did not start afresh: id %d, %d points, %d moving", tr.ID(), len(tr.Points()), tr.Moving)
	}
	// Three ticks of settling are drawn, not counted: a stand among them is no uneven tick.
	for tick, x := range []float64{0, 0.25, 0.25, 0.5, 0.75, 1.0, 1.25} {
		tr.Add(uint32(tick+1), netcode.Pose{X: x})
	}
	if len(tr.Points()) != 7 || tr.Moving != 2 || tr.Uneven != 0 {
		t.Errorf("after settling: %d points, %d uneven of %d moving; want 7 points and the last 2 even moving ticks counted", len(tr.Points()), tr.Uneven, tr.Moving)
	}
}
