package server

import (
	"testing"
	"time"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
)

// A view blending two states of a circling tank 17 ticks apart draws it on a chord, where it
// never was: refused, and no damage done. The same shot on a view within MaxViewSpan is
// judged.
func TestViews_ChordAcrossLongGapRefused(t *testing.T) {
	d := newDuel(t, nil)
	d.shooterPeer.roundTrip = 500 * time.Millisecond // so the view's age alone is allowed
	d.place(5, 12.5, 4)
	circle := netcode.Input{Turn: 1, Throttle: 1}
	for range 20 {
		d.tick(circle)
	}
	from := d.w.tick - 17
	chord := d.req(netcode.View{From: from, To: from + 17, Fraction: 0.5})
	if r := d.fireReq(chord); r.GetRefusal() != tankv1.ShotRefusal_SHOT_REFUSAL_BAD_VIEW {
		t.Fatalf("a 17-tick chord view: %v, want refused as a bad view", r)
	}
	if d.mark.health != d.w.cfg.Rules.MaxHealth {
		t.Fatalf("mark health %d after a refused shot", d.mark.health)
	}
	d.wait()
	near := d.w.tick - 1 - netcode.MaxViewSpan
	if r := d.fireReq(d.req(netcode.View{From: near, To: near + netcode.MaxViewSpan, Fraction: 0.5})); r.GetVerdict() == tankv1.ShotVerdict_SHOT_VERDICT_REFUSED {
		t.Fatalf("a view across MaxViewSpan ticks: %v, want judged", r)
	}
}

// A rewind far beyond what the client's measured round trip and drawing delay explain is
// fake lag: refused. The same view from a client whose round trip explains it hits.
func TestViews_FakeLagRefused(t *testing.T) {
	for _, c := range []struct {
		rtt  time.Duration
		want tankv1.ShotVerdict
	}{
		{6 * time.Millisecond, tankv1.ShotVerdict_SHOT_VERDICT_REFUSED},
		{300 * time.Millisecond, tankv1.ShotVerdict_SHOT_VERDICT_HIT},
	} {
		d := newDuel(t, nil)
		d.shooterPeer.roundTrip = c.rtt
		d.place(5, 12.5, 4)
		then := d.w.tick
		for range netcode.Ticks(750*time.Millisecond) - 1 { // the mark drives off
			d.tick(netcode.Input{Throttle: 1, Turn: 1})
		}
		r := d.fireReq(d.req(netcode.View{From: then, To: then})) // judged 750 ms after then
		if r.GetVerdict() != c.want || (c.want == tankv1.ShotVerdict_SHOT_VERDICT_REFUSED && r.GetRefusal() != tankv1.ShotRefusal_SHOT_REFUSAL_VIEW_TOO_OLD) {
			t.Errorf("750 ms rewind with a %v round trip: %v, want %v", c.rtt, r, c.want)
		}
	}
}

// On the large arena a shooter can only aim at tanks it was sent: a view of one beyond its
// interest radius, never sent to it, is refused, though the tank is in the line of fire;
// one that was sent is hit.
func TestViews_UnsentTankRefused(t *testing.T) {
	d := newDuel(t, func(c *Config) { c.Arena, c.ViewRadius = netcode.LargeArena(), 3 })
	d.place(40, 50, 4) // open ground; the mark 4 units east is beyond the 3-unit radius
	if d.w.viewSent(d.shooter, d.mark.id, netcode.View{From: d.w.tick, To: d.w.tick}) {
		t.Fatal("the mark beyond the radius counts as sent")
	}
	if r := d.fire(true, d.heldView()); r.GetRefusal() != tankv1.ShotRefusal_SHOT_REFUSAL_BAD_VIEW || d.mark.health != d.w.cfg.Rules.MaxHealth {
		t.Fatalf("a view of a tank never sent: %v (mark health %d), want refused as a bad view", r, d.mark.health)
	}
	d.wait()
	d.place(40, 50, 2.5)
	if r := d.fire(true, d.heldView()); r.GetVerdict() != tankv1.ShotVerdict_SHOT_VERDICT_HIT {
		t.Fatalf("a view of a tank sent: %v, want a hit", r)
	}
}

// A view naming the shooter itself is refused, not silently skipped.
func TestViews_OwnTankRefused(t *testing.T) {
	d := newDuel(t, nil)
	d.place(5, 12.5, 4)
	req := d.req(d.heldView().View)
	req.Views = append([]netcode.TankView{{ID: d.shooter.id, View: d.heldView().View}}, req.Views...)
	if r := d.fireReq(req); r.GetRefusal() != tankv1.ShotRefusal_SHOT_REFUSAL_BAD_VIEW {
		t.Fatalf("a view naming the shooter: %v, want refused as a bad view", r)
	}
}

// fireReq queues req for the next tick, runs it and returns the shooter's ShotResult.
func (d *duel) fireReq(req netcode.ShotRequest) *tankv1.ShotResult {
	d.t.Helper()
	d.shooterPeer.fires = append(d.shooterPeer.fires, req)
	d.shooterPeer.control = nil
	d.tick(netcode.Input{})
	return d.lastResult()
}
