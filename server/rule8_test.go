package server

import (
	"testing"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
)

// PROTOCOL.md §7b rule 8, on every arena: with lag compensation, a view of a tank the server
// did not send the shooter in both of the view's ticks is BAD_VIEW, whether the tank never
// existed or had not joined yet at the view's tick. With interest management the server
// checks what each client's view held; without, what each tick's snapshot held.
func TestFire_Rule8ViewOfATankNeverSent(t *testing.T) {
	for _, arena := range []struct {
		name  string
		arena netcode.Arena
	}{{"default", netcode.DefaultArena()}, {"large", netcode.LargeArena()}} {
		t.Run(arena.name, func(t *testing.T) {
			// setup returns a duel whose shooter and mark are placed, and a third tank that
			// joined after the tick it returns and has been in 3 snapshots since.
			setup := func() (*duel, *player, uint32) {
				d := newDuel(t, func(c *Config) { c.Arena = arena.arena })
				if (d.w.interest != nil) != (arena.name == "large") {
					t.Fatalf("interest management %v on the %s arena", d.w.interest != nil, arena.name)
				}
				for range 40 {
					d.tick(netcode.Input{})
				}
				d.place(5, 10, 4)
				joined := d.w.tick // the newcomer's first snapshot is the next tick's
				late, latePeer := mustJoin(t, d.w, 0, "late")
				late.pose = netcode.Pose{X: 9, Y: 12}
				for range 3 {
					latePeer.inputs = append(latePeer.inputs, netcode.PendingInput{Tick: d.w.tick - joined + 1, Duration: netcode.StepInterval})
					d.tick(netcode.Input{})
				}
				return d, late, joined
			}
			view := func(id, from, to uint32) netcode.TankView {
				f := 0.0
				if from != to {
					f = 0.5
				}
				return netcode.TankView{ID: id, View: netcode.View{From: from, To: to, Fraction: f}}
			}
			for _, tc := range []struct {
				name string
				view func(d *duel, late *player, joined uint32) netcode.TankView
				want tankv1.ShotRefusal
			}{
				{"a player that never existed", func(d *duel, _ *player, _ uint32) netcode.TankView { return view(9999, d.w.tick, d.w.tick) },
					tankv1.ShotRefusal_SHOT_REFUSAL_BAD_VIEW},
				{"a tank at a tick before it joined", func(_ *duel, late *player, joined uint32) netcode.TankView { return view(late.id, joined, joined) },
					tankv1.ShotRefusal_SHOT_REFUSAL_BAD_VIEW},
				{"a blend from before it joined", func(_ *duel, late *player, joined uint32) netcode.TankView { return view(late.id, joined, joined+2) },
					tankv1.ShotRefusal_SHOT_REFUSAL_BAD_VIEW},
				{"the tank once it was sent", func(_ *duel, late *player, joined uint32) netcode.TankView { return view(late.id, joined+1, joined+2) },
					tankv1.ShotRefusal_SHOT_REFUSAL_UNSPECIFIED},
			} {
				d, late, joined := setup()
				r := d.fire(true, tc.view(d, late, joined))
				if r.GetRefusal() != tc.want {
					t.Errorf("%s: ShotResult %v, want refusal %v", tc.name, r, tc.want)
				}
			}
		})
	}
}
