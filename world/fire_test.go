package world

import (
	"math"
	"testing"
	"time"

	"tanknet/netcode"
)

func TestFire_HitsCostHealthUntilDestroyedThenRespawn(t *testing.T) {
	d := newDuel(t, func(c *Config) { c.Rules.SpawnProtection = time.Second })
	for range 20 { // let the join's spawn protection run out
		d.tick(netcode.Input{})
	}
	rules := d.w.cfg.Rules
	shots := int(rules.MaxHealth / rules.Damage)
	var kill *netcode.Kill
	for i := range shots {
		d.place(5, 10, 4)
		r := d.fire(true, d.heldView())
		if r.Verdict != netcode.VerdictHit || r.TargetID != d.mark.id || r.Damage != rules.Damage {
			t.Fatalf("shot %d: result %+v, want a hit on %d for %d", i+1, r, d.mark.id, rules.Damage)
		}
		if want := rules.MaxHealth - uint32(i+1)*rules.Damage; d.mark.health != want {
			t.Errorf("shot %d: mark health %d, want %d", i+1, d.mark.health, want)
		}
		js, _ := shotOf(d.out, d.shooter.id)
		if last := i == shots-1; (js.Kill != nil) != last {
			t.Errorf("shot %d of %d: kill %+v", i+1, shots, js.Kill)
		} else if last {
			k := *js.Kill
			kill = &k
		}
		if i < shots-1 {
			d.wait()
		}
	}
	if !d.mark.destroyed || d.mark.deaths != 1 || d.shooter.kills != 1 {
		t.Fatalf("after %d hits: destroyed %v deaths %d kills %d, want destroyed, 1, 1", shots, d.mark.destroyed, d.mark.deaths, d.shooter.kills)
	}
	if kill == nil || kill.KillerID != d.shooter.id || kill.VictimID != d.mark.id || kill.ServerTick != d.w.tick {
		t.Errorf("Kill = %+v, want killer %d victim %d in tick %d", kill, d.shooter.id, d.mark.id, d.w.tick)
	}
	// The outcome's combat state, which the snapshot is made of, shows the wreck.
	if c := d.out.Combat[1]; d.out.IDs[1] != d.mark.id || !c.Destroyed || c.Health != 0 || c.RespawnTick <= d.w.tick {
		t.Errorf("outcome combat of %d after the kill = %+v, want destroyed, no health, a respawn tick ahead", d.out.IDs[1], c)
	}
	if c := d.out.Combat[0]; c.Destroyed || c.Health != rules.MaxHealth {
		t.Errorf("outcome combat of the shooter = %+v, want it whole", c)
	}

	// A wreck does not move, cannot be hit again and cannot fire.
	wreck := d.mark.pose
	d.tick(netcode.Input{Throttle: 1})
	if d.mark.pose != wreck {
		t.Errorf("destroyed tank moved from %v to %v", wreck, d.mark.pose)
	}
	if !d.w.Fire(d.mark, netcode.ShotRequest{MoveTick: d.markMove + 1}) {
		t.Fatal("the wreck's Fire was dropped unjudged")
	}
	d.tick(netcode.Input{})
	if js, ok := shotOf(d.out, d.mark.id); !ok || js.Result.Verdict != netcode.VerdictRefused || js.Result.Refusal != netcode.RefusalDestroyed {
		t.Errorf("a wreck's Fire: %+v (judged %v), want refused as destroyed", js.Result, ok)
	}

	// It comes back after the respawn delay, whole and protected.
	for d.mark.destroyed && d.w.tick < 200 {
		d.tick(netcode.Input{})
	}
	if d.mark.health != rules.MaxHealth || !d.w.Protected(d.mark) || d.respawns != 1 {
		t.Fatalf("after respawn: health %d protected %v respawns %d", d.mark.health, d.w.Protected(d.mark), d.respawns)
	}
	placed := false
	for _, e := range d.out.Events {
		placed = placed || (e.Player == d.mark.id && !e.Left && e.Pose == d.mark.pose)
	}
	if !placed {
		t.Errorf("respawn tick's events %+v, want the mark placed at %v", d.out.Events, d.mark.pose)
	}
	d.place(5, 10, 4)
	if r := d.fire(true, d.heldView()); r.Verdict != netcode.VerdictHit || r.Damage != 0 || d.mark.health != rules.MaxHealth {
		t.Errorf("hit on a protected tank: %+v, health %d, want a hit for no damage", r, d.mark.health)
	}
}

func TestFire_ObstaclesAndRangeStopTheShell(t *testing.T) {
	d := newDuel(t, nil)
	d.place(15, 12.5, 10) // the centre pillar [18.5, 21.5] stands between them
	r := d.fire(true, d.heldView())
	if r.Verdict != netcode.VerdictMiss || math.Abs(r.EndX-18.5) > 1e-9 {
		t.Errorf("shot through the pillar: %+v, want a miss ending at x=18.5", r)
	}
	d.wait()
	d.place(2, 2, 25) // clear line, but beyond the 20-unit range
	r = d.fire(true, d.heldView())
	if r.Verdict != netcode.VerdictMiss || math.Abs(r.EndX-22) > 1e-9 {
		t.Errorf("shot beyond range: %+v, want a miss ending at x=22", r)
	}
	// Two shots judged in the whole match, neither of them a hit (what the server counts).
	hits := 0
	for _, js := range d.judged {
		if js.Result.Verdict == netcode.VerdictHit {
			hits++
		}
	}
	if len(d.judged) != 2 || hits != 0 {
		t.Errorf("shots judged %d hits %d, want 2 and 0", len(d.judged), hits)
	}
}

// Every rule a Fire can break: refused with its reason, judged once (the server counts each
// judged shot), and nobody hurt.
func TestFire_BadFiresRefusedAndCounted(t *testing.T) {
	tests := []struct {
		name string
		fire func(d *duel) netcode.ShotRequest
		want netcode.ShotRefusal
	}{
		{"NaN fraction", func(d *duel) netcode.ShotRequest {
			return d.req(netcode.View{From: d.w.tick - 1, To: d.w.tick, Fraction: math.NaN()})
		}, netcode.RefusalBadView},
		{"backwards view", func(d *duel) netcode.ShotRequest {
			return d.req(netcode.View{From: d.w.tick, To: d.w.tick - 1})
		}, netcode.RefusalBadView},
		{"a player listed twice", func(d *duel) netcode.ShotRequest {
			r := d.req(netcode.View{From: d.w.tick, To: d.w.tick})
			r.Views = append(r.Views, r.Views[0])
			return r
		}, netcode.RefusalBadView},
		{"more views than players", func(d *duel) netcode.ShotRequest {
			r := d.req()
			for i := range d.w.cfg.MaxPlayers + 1 {
				r.Views = append(r.Views, netcode.TankView{ID: uint32(100 + i), View: netcode.View{From: d.w.tick, To: d.w.tick}})
			}
			return r
		}, netcode.RefusalBadView},
		{"view in the future", func(d *duel) netcode.ShotRequest {
			return d.req(netcode.View{From: d.w.tick, To: d.w.tick + 1, Fraction: 0.5})
		}, netcode.RefusalFutureView},
		{"view beyond the rewind window", func(d *duel) netcode.ShotRequest {
			old := d.w.tick - netcode.Ticks(d.w.cfg.Rules.RewindWindow)
			return d.req(netcode.View{From: old, To: old})
		}, netcode.RefusalViewTooOld},
		{"move tick never sent", func(d *duel) netcode.ShotRequest {
			r := d.req()
			r.MoveTick += 5
			return r
		}, netcode.RefusalUnplayedTick},
		{"move tick long gone", func(d *duel) netcode.ShotRequest {
			r := d.req()
			r.MoveTick -= moveHistory + 1
			return r
		}, netcode.RefusalStaleTick},
		{"faster than the cooldown", func(d *duel) netcode.ShotRequest {
			if r := d.fire(true); r.Verdict == netcode.VerdictRefused {
				d.t.Fatalf("the first shot: %+v, want it judged", r)
			}
			return d.req()
		}, netcode.RefusalCooldown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDuel(t, nil)
			for range 40 {
				d.tick(netcode.Input{})
			}
			d.place(5, 10, 4) // a certain hit, were the shot allowed
			req := tt.fire(d)
			health := d.mark.health
			if !d.w.Fire(d.shooter, req) {
				t.Fatalf("Fire %+v dropped unjudged", req)
			}
			d.tick(netcode.Input{})
			if len(d.out.Shots) != 1 {
				t.Fatalf("%d shots judged in the tick, want exactly the one: %+v", len(d.out.Shots), d.out.Shots)
			}
			js := d.out.Shots[0]
			if r := js.Result; js.Shooter != d.shooter.id || r.Verdict != netcode.VerdictRefused || r.Refusal != tt.want {
				t.Errorf("shot of %d: %+v, want refused: %v", js.Shooter, r, tt.want.Label())
			}
			if _, ok := js.Tracer(); ok || js.Kill != nil || js.Result.Damage != 0 {
				t.Errorf("a refused shot fired a tracer or did damage: %+v", js)
			}
			if d.mark.health != health {
				t.Errorf("a refused shot hurt: mark health %d, want %d", d.mark.health, health)
			}
			if len(d.w.Tanks()) != 2 {
				t.Errorf("a bad Fire dropped someone: %d tanks left", len(d.w.Tanks()))
			}
		})
	}
}

// Fires beyond maxWaitingFires are dropped unjudged (the server counts them), and the
// ones judged hurt no more than one shot: the rest keep to the cooldown.
func TestFire_HammeringIsBounded(t *testing.T) {
	d := newDuel(t, nil)
	d.place(5, 10, 4)
	dropped := 0
	for range 3 * maxWaitingFires {
		if !d.w.Fire(d.shooter, d.req(netcode.View{From: d.w.tick, To: d.w.tick})) {
			dropped++
		}
	}
	d.tick(netcode.Input{})
	if dropped != 2*maxWaitingFires {
		t.Errorf("fires dropped = %d, want %d", dropped, 2*maxWaitingFires)
	}
	if len(d.out.Shots) != maxWaitingFires {
		t.Errorf("shots judged = %d, want the %d that waited", len(d.out.Shots), maxWaitingFires)
	}
	accepted := 0
	for _, js := range d.out.Shots {
		switch r := js.Result; {
		case r.Verdict != netcode.VerdictRefused:
			accepted++
		case r.Refusal != netcode.RefusalCooldown:
			t.Errorf("a hammered shot refused as %v, want cooldown", r.Refusal.Label())
		}
	}
	if accepted != 1 {
		t.Errorf("shots accepted = %d, want 1 (the rest are cooldown refusals)", accepted)
	}
	if d.mark.health != d.w.cfg.Rules.MaxHealth-d.w.cfg.Rules.Damage {
		t.Errorf("mark health %d: hammering must hurt no more than one shot", d.mark.health)
	}
}
