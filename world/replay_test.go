package world

import (
	"slices"
	"testing"
)

// Replaying a tick's placements gives every tank the spawn protection the live tick gave
// it, to the tick: a join's counts from the tick before (a join comes between ticks), a
// wreck's respawn from the tick itself.
func TestReplay_SpawnProtectionAsTheTickGaveIt(t *testing.T) {
	cfg := testConfig()
	live, again := New(cfg), New(cfg)
	first := mustJoin(t, live, 1, &testClient{})
	var second *Tank
	for tick := uint32(1); tick <= 80; tick++ {
		switch tick {
		case 5:
			second = mustJoin(t, live, 2, &testClient{})
		case 12: // destroyed by some shot: back after the respawn delay
			first.destroyed, first.respawnAt = true, tick+40
		}
		out := runTick(live)
		rec := &Recorded{Tick: out.Tick, Events: slices.Clone(out.Events), Moves: slices.Clone(out.Applied)}
		for i, id := range out.IDs { // the combat as a recording keeps it (no shots to judge)
			rec.Combat = append(rec.Combat, CombatChange{Player: id, TankCombat: out.Combat[i]})
		}
		shots, err := again.Replay(rec)
		if err != nil || len(shots) != 0 {
			t.Fatalf("tick %d: replay: %v, %d shots", tick, err, len(shots))
		}
		for _, tk := range []*Tank{first, second} {
			if tk == nil {
				continue
			}
			r := again.Find(tk.id)
			if r == nil {
				t.Fatalf("tick %d: player %d is not in the replayed world", tick, tk.id)
			}
			if r.protectedUntil != tk.protectedUntil || again.Protected(r) != live.Protected(tk) {
				t.Fatalf("tick %d: player %d protected until tick %d live, %d replayed", tick, tk.id, tk.protectedUntil, r.protectedUntil)
			}
		}
	}
	if first.destroyed || first.protectedUntil <= 52 {
		t.Fatalf("player 1 did not respawn in the test (protected until %d)", first.protectedUntil)
	}
}
