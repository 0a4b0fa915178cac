package sim

import (
	"tanknet/world"
	"testing"
	"time"

	"tanknet/netcode"
	"tanknet/server"
)

func TestInputLog_LateTicksAgainstEachPlayersEarliestLead(t *testing.T) {
	var l inputLog
	rec := func(tick uint32, applied []world.AppliedInput, ids, starved []uint32) {
		l.record(server.TickRecord{Now: time.Duration(tick) * 50 * time.Millisecond, Outcome: world.Outcome{Tick: tick, IDs: ids, Applied: applied, Starved: starved}})
	}
	// Inputs normally take one tick from send to apply. Player 1's move tick 3 comes 2
	// ticks late (behind a loss), along with 4; player 2's move tick 9 one tick late.
	rec(11, []world.AppliedInput{{Player: 1, MoveTick: 1}, {Player: 2, MoveTick: 8}}, []uint32{1, 2}, nil)
	rec(12, []world.AppliedInput{{Player: 1, MoveTick: 2}}, []uint32{1, 2}, []uint32{2})
	rec(13, []world.AppliedInput{{Player: 2, MoveTick: 9}, {Player: 2, MoveTick: 10}}, []uint32{1, 2}, []uint32{1})
	rec(15, []world.AppliedInput{{Player: 1, MoveTick: 3}, {Player: 1, MoveTick: 4}}, []uint32{1, 2}, nil)
	// Player 1 sends move tick m at server time (m+9) x 50 ms, player 2 at (m+2) x 50 ms.
	sent := func(player, m uint32) (time.Duration, bool) {
		base := map[uint32]uint32{1: 9, 2: 2}[player]
		return time.Duration(m+base) * 50 * time.Millisecond, base > 0
	}
	all := func(time.Duration, uint32) bool { return true }
	got := l.lateTicks(all, sent)
	want := []float64{0, 0, 0, 1, 0, 2, 1}
	if len(got) != len(want) {
		t.Fatalf("lateTicks = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("lateTicks = %v, want %v", got, want)
		}
	}
	if r, ok := l.starvedRatio(all); !ok || r != 2.0/8 {
		t.Errorf("starvedRatio = %v, %v; want 2 of 8 player-ticks", r, ok)
	}
	late := func(now time.Duration, _ uint32) bool { return now > 700*time.Millisecond }
	if got := l.lateTicks(late, sent); len(got) != 2 || got[0] != 2 {
		t.Errorf("lateTicks in the window after 700 ms = %v, want [2 1]", got)
	}
	if _, ok := l.starvedRatio(func(time.Duration, uint32) bool { return false }); ok {
		t.Error("starvedRatio of an empty window reported a value")
	}
	// One player's figures alone (a group of one): player 2 starved in 1 of its 4 ticks,
	// and of its inputs only move tick 9 was late, by a tick.
	two := func(_ time.Duration, p uint32) bool { return p == 2 }
	if r, ok := l.starvedRatio(two); !ok || r != 1.0/4 {
		t.Errorf("player 2's starvedRatio = %v, %v; want 1 of its 4 ticks", r, ok)
	}
	if got := l.lateTicks(two, sent); len(got) != 3 || got[0] != 0 || got[1] != 1 || got[2] != 0 {
		t.Errorf("player 2's lateTicks = %v, want [0 1 0]", got)
	}
}

// TestInputLog_DoublesWaitsAndUnevenMotion: a tank that moves one step a tick is even; one
// that stands a tick and then moves two is counted as a stand, a double and two uneven
// ticks; waits come from the applied inputs with a known arrival.
func TestInputLog_DoublesWaitsAndUnevenMotion(t *testing.T) {
	var l inputLog
	step := 50 * time.Millisecond
	steady, stutter := 0.0, 0.0
	moves := []int{1, 1, 0, 2, 1, 1} // the stutterer's inputs per tick
	for i, n := range moves {
		now := time.Duration(i+1) * step
		steady += 1
		stutter += float64(n)
		rec := server.TickRecord{Now: now, Outcome: world.Outcome{Tick: uint32(i + 1), IDs: []uint32{1, 2},
			Poses:   []netcode.Pose{{X: steady}, {X: stutter}},
			Applied: []world.AppliedInput{{Player: 1, MoveTick: uint32(i + 1), Wait: 7 * time.Millisecond}}}}
		for k := range n {
			rec.Applied = append(rec.Applied, world.AppliedInput{Player: 2, MoveTick: uint32(10*i + k), Wait: -1})
		}
		l.record(rec)
	}
	all := func(time.Duration, uint32) bool { return true }
	doubles, uneven := l.ratios(all)
	if want := 1.0 / 12; doubles == nil || *doubles != want {
		t.Errorf("input_double_ratio = %v, want %v (one player-tick of twelve applied two)", doubles, want)
	}
	// Moving player-ticks after the first: 5 of the steady tank, 5 of the stutterer; uneven:
	// the stand (1 -> 0), the double (0 -> 2) and the step back (2 -> 1).
	if want := 3.0 / 10; uneven == nil || *uneven != want {
		t.Errorf("motion_uneven_ratio = %v, want %v", uneven, want)
	}
	waits := l.waits(all)
	if len(waits) != len(moves) || waits[0] != 7 {
		t.Errorf("waits = %v, want the steady player's %d known waits of 7 ms (unknown ones left out)", waits, len(moves))
	}
	stutterer := func(_ time.Duration, p uint32) bool { return p == 2 }
	if d, u := l.ratios(stutterer); d == nil || *d != 1.0/6 || u == nil || *u != 3.0/5 {
		t.Errorf("the stutterer alone: doubles %v, uneven %v; want 1/6 and 3/5", d, u)
	}
	if w := l.waits(stutterer); len(w) != 0 {
		t.Errorf("the stutterer's waits = %v, want none (all unknown)", w)
	}
}
