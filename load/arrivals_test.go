package load

import "testing"

// TestArrivals_AckAndMissing: a tick counts once all its chunks came and none spoiled; the
// acknowledgement names the newest such tick and marks the complete ones before it; ticks
// that never came whole count as missing.
func TestArrivals_AckAndMissing(t *testing.T) {
	var a arrivals
	take := func(tick, index, count uint32, spoiled bool) {
		if a.chunk(tick, index, count) {
			a.settle(tick, spoiled)
		}
	}
	take(10, 0, 1, false) // whole
	take(11, 0, 2, false) // half: never complete
	take(12, 0, 1, true)  // a delta that could not be rebuilt
	take(13, 1, 2, false)
	take(13, 0, 2, false) // out of order, then whole
	take(13, 0, 2, false) // a duplicate: not counted again
	tick, mask := a.ack()
	if tick != 13 || mask != 1<<2 { // tick 10 is 13-10-1 = 2 before
		t.Errorf("ack() = %d, %b; want 13, %b", tick, mask, 1<<2)
	}
	if a.complete != 2 || a.missing() != 2 {
		t.Errorf("complete, missing = %d, %d; want 2, 2 (11 partial, 12 spoiled)", a.complete, a.missing())
	}
	if a.chunk(13+arrivalSlots, 0, 1); a.chunk(13, 1, 2) {
		t.Error("a chunk older than the window was taken")
	}
	if a.chunk(20, 64, 65) {
		t.Error("a chunk index past the 64 a mask holds was taken")
	}
}
