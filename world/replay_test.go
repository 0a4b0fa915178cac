package world

import (
	"slices"
	"testing"
	"time"

	"tanknet/netcode"
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

// trustingClient says it was sent every tank's state of every tick, and has a long round
// trip: the checks a recording cannot repeat pass wide open for it live.
type trustingClient struct{}

func (trustingClient) InputMode() InputMode                 { return ModeServerDefault }
func (trustingClient) RTT() time.Duration                   { return 900 * time.Millisecond }
func (trustingClient) Arrival(uint32) (time.Duration, bool) { return 0, false }
func (trustingClient) Sent(uint32, uint32) bool             { return true }

// A shot judged again from a recording is taken to have passed the checks that rest on
// what its client was sent and on its round trip, so it gets the verdict it got live: here
// a view of states from before the target joined (sent, the client says; nothing to rewind
// into, so a miss) and a view 17 ticks old (within this client's round trip, beyond what a
// client without one may show: a hit).
func TestReplay_AShotJudgedAgainPassesItsClientsChecks(t *testing.T) {
	cfg := testConfig()
	cfg.Interest = true
	live, again := New(cfg), New(cfg)
	shooter, err := live.Join(1, trustingClient{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	live.Place(1, netcode.Pose{X: 6, Y: 12.5})
	fires := map[uint32]netcode.View{40: {From: 27, To: 28, Fraction: 0.5}, 52: {From: 34, To: 35}}
	var verdicts []netcode.ShotVerdict
	for tick := uint32(1); tick <= 55; tick++ {
		if tick == 30 {
			if _, err := live.Join(2, trustingClient{}, 0); err != nil {
				t.Fatal(err)
			}
			live.Place(2, netcode.Pose{X: 12, Y: 12.5})
		}
		live.Queue(shooter, netcode.PendingInput{Tick: tick, Duration: netcode.StepInterval})
		if v, ok := fires[tick]; ok {
			live.Fire(shooter, netcode.ShotRequest{MoveTick: tick, LagCompensation: true, Views: []netcode.TankView{{ID: 2, View: v}}})
		}
		out := live.Tick(time.Duration(tick) * netcode.StepInterval)
		rec := &Recorded{Tick: out.Tick, Events: slices.Clone(out.Events), Moves: slices.Clone(out.Applied),
			Shots: slices.Clone(out.Shots), Judge: true}
		shots, err := again.Replay(rec)
		if err != nil || len(shots) != len(rec.Shots) {
			t.Fatalf("tick %d: replay judged %d of %d shots: %v", tick, len(shots), len(rec.Shots), err)
		}
		for i, s := range shots {
			want := rec.Shots[i].Result
			if s.Result.Verdict != want.Verdict || s.Result.Refusal != want.Refusal || s.Result.EndX != want.EndX {
				t.Fatalf("tick %d: judged again %+v, live %+v", tick, s.Result, want)
			}
			verdicts = append(verdicts, want.Verdict)
		}
	}
	if !slices.Equal(verdicts, []netcode.ShotVerdict{netcode.VerdictMiss, netcode.VerdictHit}) {
		t.Fatalf("live verdicts %v; the test wants a miss (no history) and a hit (an old view)", verdicts)
	}
}
