package world

import (
	"testing"

	"tanknet/netcode"
)

// TestSpawnProtection_LastsItsTicksAfterAJoinAndARespawn: Rules.SpawnProtection (1500 ms by
// default) protects a tank in exactly that many ticks' snapshots (30), counted from the
// first tick it is in: the tick after a join (joins come between ticks), and a respawn's
// own tick.
func TestSpawnProtection_LastsItsTicksAfterAJoinAndARespawn(t *testing.T) {
	cfg := testConfig()
	cfg.Rules.SpawnProtection = netcode.DefaultRules().SpawnProtection
	want := netcode.Ticks(cfg.Rules.SpawnProtection)
	w := New(cfg)
	tk := mustJoin(t, w, 1, &testClient{})
	joined, respawned := 0, 0
	const downAt, backAt = 60, 100
	for tick := uint32(1); tick <= 160; tick++ {
		if tick == downAt {
			tk.destroyed, tk.respawnAt = true, backAt
		}
		runTick(w) // the server's snapshot of the tick says w.Protected (spawn_protected)
		switch {
		case !w.Protected(tk):
		case tick < downAt:
			joined++
		case tick >= backAt:
			respawned++
		default:
			t.Fatalf("tick %d: protected while destroyed", tick)
		}
	}
	if joined != int(want) || respawned != int(want) {
		t.Errorf("protected in %d ticks after the join and %d after the respawn, want %d each (%v)", joined, respawned, want, cfg.Rules.SpawnProtection)
	}
}
