package main

import (
	"testing"
	"time"
)

// TestRoomLedger walks a server through allocations: a room an allocation adds is held
// until a room opens for it or the hold passes, a count Agones shows at or below the one
// asked holds nothing, and the count never passes the capacity.
func TestRoomLedger(t *testing.T) {
	t0 := time.Unix(1000, 0)
	l := roomLedger{hold: time.Minute}
	step := func(at time.Duration, open, capacity int, want int64) {
		t.Helper()
		if got := l.count(t0.Add(at), open, capacity); got != want {
			t.Fatalf("at %v with %d open of %d: count %d, want %d (held %d)", at, open, capacity, got, want, len(l.held))
		}
	}
	step(0, 0, 4, 0)
	l.seen(t0, 1)                    // an allocation picked the server
	step(time.Second, 0, 4, 1)       // the room is held before anyone joins
	l.seen(t0.Add(time.Second), 1)   // the watch repeats the count: nothing more held
	step(2*time.Second, 1, 4, 1)     // the match's room opens and uses the hold
	step(3*time.Second, 1, 4, 1)     // ...so the count stays one
	l.seen(t0.Add(4*time.Second), 3) // two allocations at once
	step(5*time.Second, 1, 4, 3)
	step(6*time.Second, 2, 4, 3)       // one of them came
	step(65*time.Second, 2, 4, 2)      // the other never did: given back after the hold
	step(66*time.Second, 1, 4, 1)      // a room closes
	l.seen(t0.Add(66*time.Second), 2)  // a stale watch line from before: it reads above
	step(67*time.Second, 1, 4, 2)      // ...and is held, the safe side: fuller, never overfull
	step(127*time.Second, 1, 4, 1)     // given back after the hold
	l.seen(t0.Add(128*time.Second), 0) // a count below the one asked holds nothing
	step(129*time.Second, 1, 4, 1)
	l.seen(t0.Add(130*time.Second), 9) // an allocation past the capacity (a misconfigured fleet)
	step(131*time.Second, 1, 4, 4)     // capped
}
