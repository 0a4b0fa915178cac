package world

import (
	"testing"

	"tanknet/netcode"
)

// PROTOCOL.md §7b: without lag compensation a shot is judged against the tanks the shooter
// was sent in the previous tick's snapshot, with or without interest management. A tank that
// joined since (right in the line of fire) is not there for that shot; the next tick's shot,
// once a snapshot has shown it, hits it.
func TestFire_WithoutLagCompensationANewcomerNotYetSentIsNoTarget(t *testing.T) {
	eachArena(t, func(t *testing.T, arena netcode.Arena, interest bool) {
		d := newDuel(t, func(c *Config) { c.Arena, c.Interest = arena, interest })
		for range 40 {
			d.tick(netcode.Input{})
		}
		d.place(5, 10, 4)
		late := mustJoin(t, d.w, 3, &testClient{})
		late.pose = netcode.Pose{X: 7, Y: 10} // between the shooter and the mark
		mustQueue(t, d.w, late, netcode.PendingInput{Tick: 1, Duration: netcode.StepInterval})
		r := d.fire(false)
		if r.Verdict != netcode.VerdictHit || r.TargetID != d.mark.id {
			t.Fatalf("the shot the tick the newcomer joined: %+v, want a hit on the mark %d past it", r, d.mark.id)
		}
		if js, _ := shotOf(d.out, d.shooter.id); len(js.Sighted) != 1 || js.Sighted[0] != d.mark.id {
			t.Errorf("sighted %v, want only the mark %d", js.Sighted, d.mark.id)
		}
		d.wait()
		late.pose = netcode.Pose{X: 7, Y: 10}
		mustQueue(t, d.w, late, netcode.PendingInput{Tick: late.last + 1, Duration: netcode.StepInterval})
		if r := d.fire(false); r.Verdict != netcode.VerdictHit || r.TargetID != late.id {
			t.Fatalf("a shot once a snapshot showed the newcomer: %+v, want a hit on %d", r, late.id)
		}
	})
}
