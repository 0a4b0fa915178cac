package world

import (
	"testing"

	"tanknet/netcode"
)

// PROTOCOL.md §7b rule 8, on every arena: with lag compensation, a view of a tank the server
// did not send the shooter in both of the view's ticks is BAD_VIEW, whether the tank never
// existed or had not joined yet at the view's tick. With interest management (the large
// arena's) the world asks the shooter's client what its view held; without, it checks what
// each tick's snapshot held, from the shooter's first one: a newcomer that shoots was sent
// nothing of the ticks before it joined.
func TestFire_Rule8ViewOfATankNeverSent(t *testing.T) {
	eachArena(t, func(t *testing.T, arena netcode.Arena, interest bool) {
		// setup returns a duel whose shooter and mark are placed, and a third tank that
		// joined after the tick it returns and has been in 3 snapshots since.
		setup := func() (*duel, *Tank, uint32) {
			d := newDuel(t, func(c *Config) { c.Arena, c.Interest = arena, interest })
			for range 40 {
				d.tick(netcode.Input{})
			}
			d.place(5, 10, 4)
			joined := d.w.tick // the newcomer's first snapshot is the next tick's
			late := mustJoin(t, d.w, 3, &testClient{})
			late.pose = netcode.Pose{X: 9, Y: 12}
			for range 3 {
				mustQueue(t, d.w, late, netcode.PendingInput{Tick: d.w.tick - joined + 1, Duration: netcode.StepInterval})
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
			view func(d *duel, late *Tank, joined uint32) netcode.TankView
			want netcode.ShotRefusal
		}{
			{"a player that never existed", func(d *duel, _ *Tank, _ uint32) netcode.TankView { return view(9999, d.w.tick, d.w.tick) },
				netcode.RefusalBadView},
			{"a tank at a tick before it joined", func(_ *duel, late *Tank, joined uint32) netcode.TankView { return view(late.id, joined, joined) },
				netcode.RefusalBadView},
			{"a blend from before it joined", func(_ *duel, late *Tank, joined uint32) netcode.TankView { return view(late.id, joined, joined+2) },
				netcode.RefusalBadView},
			{"the tank once it was sent", func(_ *duel, late *Tank, joined uint32) netcode.TankView { return view(late.id, joined+1, joined+2) },
				netcode.RefusalNone},
		} {
			d, late, joined := setup()
			d.shooterClient.asks = 0
			r := d.fire(true, tc.view(d, late, joined))
			if r.Refusal != tc.want || (tc.want == netcode.RefusalNone) == (r.Verdict == netcode.VerdictRefused) {
				t.Errorf("%s: ShotResult %+v, want refusal %v", tc.name, r, tc.want.Label())
			}
			// Which of the two checks judged: the client's answers, or the history.
			if asked := d.shooterClient.asks > 0; asked != interest {
				t.Errorf("%s: the world asked the client what it was sent %d times, with interest management %v",
					tc.name, d.shooterClient.asks, interest)
			}
		}
		// The newcomer as the shooter: it was sent nothing before its first snapshot, so a
		// view of the mark at the tick it joined in is of a state never sent to it.
		for _, tc := range []struct {
			name string
			from uint32 // ticks after joined
			want netcode.ShotRefusal
		}{{"the newcomer's view from before it joined", 0, netcode.RefusalBadView},
			{"the newcomer's view of its first snapshot", 1, netcode.RefusalNone}} {
			d, late, joined := setup()
			move := late.last + 1
			mustQueue(t, d.w, late, netcode.PendingInput{Tick: move, Duration: netcode.StepInterval})
			d.w.Fire(late, netcode.ShotRequest{MoveTick: move, LagCompensation: true,
				Views: []netcode.TankView{view(d.mark.id, joined+tc.from, joined+tc.from)}})
			d.tick(netcode.Input{})
			js, ok := shotOf(d.out, late.id)
			if r := js.Result; !ok || r.Refusal != tc.want || (tc.want == netcode.RefusalNone) == (r.Verdict == netcode.VerdictRefused) {
				t.Errorf("%s: ShotResult %+v (judged %v), want refusal %v", tc.name, r, ok, tc.want.Label())
			}
		}
	})
}
