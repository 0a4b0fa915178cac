package world

import (
	"testing"
	"time"

	"tanknet/netcode"
)

// A view blending two states of a circling tank 17 ticks apart draws it on a chord, where it
// never was: refused, and no damage done. The same shot on a view within MaxViewSpan is
// judged.
func TestViews_ChordAcrossLongGapRefused(t *testing.T) {
	d := newDuel(t, nil)
	d.shooterClient.rtt = 500 * time.Millisecond // so the view's age alone is allowed
	d.place(5, 12.5, 4)
	circle := netcode.Input{Turn: 1, Throttle: 1}
	for range 20 {
		d.tick(circle)
	}
	from := d.w.tick - 17
	chord := d.req(netcode.View{From: from, To: from + 17, Fraction: 0.5})
	if r := d.fireReq(chord); r.Verdict != netcode.VerdictRefused || r.Refusal != netcode.RefusalBadView {
		t.Fatalf("a 17-tick chord view: %+v, want refused as a bad view", r)
	}
	if d.mark.health != d.w.cfg.Rules.MaxHealth {
		t.Fatalf("mark health %d after a refused shot", d.mark.health)
	}
	d.wait()
	near := d.w.tick - 1 - netcode.MaxViewSpan
	if r := d.fireReq(d.req(netcode.View{From: near, To: near + netcode.MaxViewSpan, Fraction: 0.5})); r.Verdict == netcode.VerdictRefused {
		t.Fatalf("a view across MaxViewSpan ticks: %+v, want judged", r)
	}
}

// A rewind far beyond what the client's measured round trip and drawing delay explain is
// fake lag: refused. The same view from a client whose round trip explains it hits.
func TestViews_FakeLagRefused(t *testing.T) {
	for _, c := range []struct {
		rtt  time.Duration
		want netcode.ShotVerdict
	}{
		{6 * time.Millisecond, netcode.VerdictRefused},
		{300 * time.Millisecond, netcode.VerdictHit},
	} {
		d := newDuel(t, nil)
		d.shooterClient.rtt = c.rtt
		d.place(5, 12.5, 4)
		then := d.w.tick
		for range netcode.Ticks(750*time.Millisecond) - 1 { // the mark drives off
			d.tick(netcode.Input{Throttle: 1, Turn: 1})
		}
		r := d.fireReq(d.req(netcode.View{From: then, To: then})) // judged 750 ms after then
		if r.Verdict != c.want || (c.want == netcode.VerdictRefused && r.Refusal != netcode.RefusalViewTooOld) {
			t.Errorf("750 ms rewind with a %v round trip: %+v, want verdict %v", c.rtt, r, c.want)
		}
	}
}

// With interest management a shooter can only aim at tanks it was sent: a view of one
// beyond its interest radius, never sent to it, is refused, though the tank is in the line
// of fire; one that was sent is hit. (The server's interest management decides what a
// client is sent and answers Client.Sent; here the test client is sent the tanks within 3
// units, as a server with that view radius would send them.)
func TestViews_UnsentTankRefused(t *testing.T) {
	d := newDuel(t, func(c *Config) { c.Arena, c.Interest = netcode.LargeArena(), true })
	d.shooterClient.sees = withinRadius(3)
	d.place(40, 50, 4) // open ground; the mark 4 units east is beyond the 3-unit radius
	if d.w.viewSent(d.shooter, d.mark.id, netcode.View{From: d.w.tick, To: d.w.tick}) {
		t.Fatal("the mark beyond the radius counts as sent")
	}
	if r := d.fire(true, d.heldView()); r.Refusal != netcode.RefusalBadView || d.mark.health != d.w.cfg.Rules.MaxHealth {
		t.Fatalf("a view of a tank never sent: %+v (mark health %d), want refused as a bad view", r, d.mark.health)
	}
	d.wait()
	d.place(40, 50, 2.5)
	if r := d.fire(true, d.heldView()); r.Verdict != netcode.VerdictHit {
		t.Fatalf("a view of a tank sent: %+v, want a hit", r)
	}
}

// Without lag compensation a shot is judged against the tanks where they are now, but with
// interest management only against those the shooter was sent in the previous tick's
// snapshot: the shell passes through a tank its client never showed, and strikes one it did.
func TestViews_UnsentTankNotHitWithoutLagCompensation(t *testing.T) {
	d := newDuel(t, func(c *Config) { c.Arena, c.Interest = netcode.LargeArena(), true })
	d.shooterClient.sees = withinRadius(3)
	d.place(40, 50, 4)
	if r := d.fire(false); r.Verdict != netcode.VerdictMiss || d.mark.health != d.w.cfg.Rules.MaxHealth {
		t.Fatalf("a shot at a tank never sent: %+v (mark health %d), want a miss", r, d.mark.health)
	}
	d.wait()
	d.place(40, 50, 2.5)
	if r := d.fire(false); r.Verdict != netcode.VerdictHit || r.TargetID != d.mark.id || r.LagCompensated {
		t.Fatalf("a shot at a tank sent: %+v, want a hit without lag compensation", r)
	}
}

// A view naming the shooter itself is refused, not silently skipped.
func TestViews_OwnTankRefused(t *testing.T) {
	d := newDuel(t, nil)
	d.place(5, 12.5, 4)
	req := d.req(d.heldView().View)
	req.Views = append([]netcode.TankView{{ID: d.shooter.id, View: d.heldView().View}}, req.Views...)
	if r := d.fireReq(req); r.Verdict != netcode.VerdictRefused || r.Refusal != netcode.RefusalBadView {
		t.Fatalf("a view naming the shooter: %+v, want refused as a bad view", r)
	}
}
