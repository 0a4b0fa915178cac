package server

import (
	"math"
	"testing"
	"time"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/wire"
)

// duel is a world with two players and no spawn protection, driven one tick at a time: a
// shooter and a target, each sending one input per tick.
type duel struct {
	t              *testing.T
	w              *world
	shooter, mark  *player
	shooterPeer    *fakePeer
	markPeer       *fakePeer
	move, markMove uint32 // last move tick sent by each
}

func newDuel(t *testing.T, mutate func(*Config)) *duel {
	t.Helper()
	w := newTestWorld(t, func(c *Config) {
		c.Rules.SpawnProtection = 0
		if mutate != nil {
			mutate(c)
		}
	})
	d := &duel{t: t, w: w}
	d.shooter, d.shooterPeer = mustJoin(t, w, 0, "shooter")
	d.mark, d.markPeer = mustJoin(t, w, 0, "mark")
	return d
}

// tick sends one input for each player (the mark drives with markIn) and runs a tick.
func (d *duel) tick(markIn netcode.Input) {
	d.move++
	d.markMove++
	d.shooterPeer.inputs = append(d.shooterPeer.inputs, netcode.PendingInput{Tick: d.move, Duration: netcode.StepInterval})
	d.markPeer.inputs = append(d.markPeer.inputs, netcode.PendingInput{Tick: d.markMove, Input: markIn, Duration: netcode.StepInterval})
	d.w.step(time.Duration(d.w.tick+1) * netcode.StepInterval)
}

// place puts the shooter at (x, y) facing east and the mark dx further east, and runs a
// tick so the history has them.
func (d *duel) place(x, y, dx float64) {
	d.shooter.pose = netcode.Pose{X: x, Y: y}
	d.mark.pose = netcode.Pose{X: x + dx, Y: y}
	d.tick(netcode.Input{})
}

// fire queues a Fire for the next tick, belonging to the move tick that tick applies,
// runs the tick and returns the ShotResult the shooter received.
func (d *duel) fire(lagComp bool, views ...netcode.TankView) *tankv1.ShotResult {
	d.t.Helper()
	d.shooterPeer.fires = append(d.shooterPeer.fires, netcode.ShotRequest{MoveTick: d.move + 1, LagCompensation: lagComp, Views: views})
	d.shooterPeer.control = nil
	d.tick(netcode.Input{})
	return d.lastResult()
}

func (d *duel) lastResult() *tankv1.ShotResult {
	d.t.Helper()
	for i := len(d.shooterPeer.control) - 1; i >= 0; i-- {
		if r := d.shooterPeer.control[i].GetShotResult(); r != nil {
			return r
		}
	}
	d.t.Fatalf("no ShotResult after tick %d", d.w.tick)
	return nil
}

// heldView is a view of the mark's state in the newest snapshot.
func (d *duel) heldView() netcode.TankView {
	return netcode.TankView{ID: d.mark.id, View: netcode.View{From: d.w.tick, To: d.w.tick}}
}

// wait runs ticks until the cooldown allows another shot.
func (d *duel) wait() {
	for range netcode.Ticks(d.w.cfg.Rules.Cooldown) {
		d.tick(netcode.Input{})
	}
}

func TestFire_HitsCostHealthUntilDestroyedThenRespawn(t *testing.T) {
	d := newDuel(t, func(c *Config) { c.Rules.SpawnProtection = time.Second })
	for range 20 { // let the join's spawn protection run out
		d.tick(netcode.Input{})
	}
	rules := d.w.cfg.Rules
	shots := int(rules.MaxHealth / rules.Damage)
	for i := range shots {
		d.place(5, 10, 4)
		r := d.fire(true, d.heldView())
		if r.GetVerdict() != tankv1.ShotVerdict_SHOT_VERDICT_HIT || r.GetTargetId() != d.mark.id || r.GetDamage() != rules.Damage {
			t.Fatalf("shot %d: result %v, want a hit on %d for %d", i+1, r, d.mark.id, rules.Damage)
		}
		if want := rules.MaxHealth - uint32(i+1)*rules.Damage; d.mark.health != want {
			t.Errorf("shot %d: mark health %d, want %d", i+1, d.mark.health, want)
		}
		if i < shots-1 {
			d.wait()
		}
	}
	if !d.mark.destroyed || d.mark.deaths != 1 || d.shooter.kills != 1 {
		t.Fatalf("after %d hits: destroyed %v deaths %d kills %d, want destroyed, 1, 1", shots, d.mark.destroyed, d.mark.deaths, d.shooter.kills)
	}
	var kill *tankv1.Kill
	for _, m := range d.markPeer.control {
		if k := m.GetKill(); k != nil {
			kill = k
		}
	}
	if kill.GetKillerId() != d.shooter.id || kill.GetVictimId() != d.mark.id {
		t.Errorf("Kill sent to the victim = %v, want killer %d victim %d", kill, d.shooter.id, d.mark.id)
	}
	snap := decodeFrame(d.markPeer.snapshot).GetSnapshot().GetPlayers()
	if ps := snap[1]; !ps.GetDestroyed() || ps.GetHealth() != 0 || ps.GetDeaths() != 1 || snap[0].GetKills() != 1 {
		t.Errorf("snapshot after the kill = %v, want the mark destroyed and the kill counted", snap)
	}

	// A wreck does not move, cannot be hit again and cannot fire.
	wreck := d.mark.pose
	d.tick(netcode.Input{Throttle: 1})
	if d.mark.pose != wreck {
		t.Errorf("destroyed tank moved from %v to %v", wreck, d.mark.pose)
	}
	d.markPeer.fires = append(d.markPeer.fires, netcode.ShotRequest{MoveTick: d.markMove + 1})
	d.markPeer.control = nil
	d.tick(netcode.Input{})
	if r := lastShotResult(d.markPeer); r.GetRefusal() != tankv1.ShotRefusal_SHOT_REFUSAL_DESTROYED {
		t.Errorf("a wreck's Fire: %v, want refused as destroyed", r)
	}

	// It comes back after the respawn delay, whole and protected.
	for d.mark.destroyed && d.w.tick < 200 {
		d.tick(netcode.Input{})
	}
	if d.mark.health != rules.MaxHealth || !d.w.protected(d.mark) || d.w.stats.respawns.Load() != 1 {
		t.Fatalf("after respawn: health %d protected %v respawns %d", d.mark.health, d.w.protected(d.mark), d.w.stats.respawns.Load())
	}
	d.place(5, 10, 4)
	if r := d.fire(true, d.heldView()); r.GetVerdict() != tankv1.ShotVerdict_SHOT_VERDICT_HIT || r.GetDamage() != 0 || d.mark.health != rules.MaxHealth {
		t.Errorf("hit on a protected tank: %v, health %d, want a hit for no damage", r, d.mark.health)
	}
}

func lastShotResult(fp *fakePeer) *tankv1.ShotResult {
	for i := len(fp.control) - 1; i >= 0; i-- {
		if r := fp.control[i].GetShotResult(); r != nil {
			return r
		}
	}
	return nil
}

func TestFire_ObstaclesAndRangeStopTheShell(t *testing.T) {
	d := newDuel(t, nil)
	d.place(15, 12.5, 10) // the centre pillar [18.5, 21.5] stands between them
	r := d.fire(true, d.heldView())
	if r.GetVerdict() != tankv1.ShotVerdict_SHOT_VERDICT_MISS || math.Abs(r.GetEnd().GetX()-18.5) > 1e-9 {
		t.Errorf("shot through the pillar: %v, want a miss ending at x=18.5", r)
	}
	d.wait()
	d.place(2, 2, 25) // clear line, but beyond the 20-unit range
	r = d.fire(true, d.heldView())
	if r.GetVerdict() != tankv1.ShotVerdict_SHOT_VERDICT_MISS || math.Abs(r.GetEnd().GetX()-22) > 1e-9 {
		t.Errorf("shot beyond range: %v, want a miss ending at x=22", r)
	}
	if got := d.w.stats.shots.Load(); got != 2 || d.w.stats.hits.Load() != 0 {
		t.Errorf("shots %d hits %d, want 2 and 0", got, d.w.stats.hits.Load())
	}
}

func TestFire_ShotsAreToldToEveryone(t *testing.T) {
	d := newDuel(t, nil)
	d.place(5, 10, 4)
	d.markPeer.control = nil
	d.fire(true, d.heldView())
	var shot *tankv1.Shot
	for _, m := range d.markPeer.control {
		if s := m.GetShot(); s != nil {
			shot = s
		}
	}
	if shot.GetShooterId() != d.shooter.id || shot.GetTargetId() != d.mark.id || shot.GetOrigin().GetX() != 5 {
		t.Errorf("Shot seen by the target = %v, want shooter %d hitting %d from x=5", shot, d.shooter.id, d.mark.id)
	}
}

// Every rule a Fire can break: refused with its reason, counted, and nobody hurt.
func TestFire_BadFiresRefusedAndCounted(t *testing.T) {
	tests := []struct {
		name string
		fire func(d *duel) netcode.ShotRequest
		want tankv1.ShotRefusal
	}{
		{"NaN fraction", func(d *duel) netcode.ShotRequest {
			return d.req(netcode.View{From: d.w.tick - 1, To: d.w.tick, Fraction: math.NaN()})
		}, tankv1.ShotRefusal_SHOT_REFUSAL_BAD_VIEW},
		{"backwards view", func(d *duel) netcode.ShotRequest {
			return d.req(netcode.View{From: d.w.tick, To: d.w.tick - 1})
		}, tankv1.ShotRefusal_SHOT_REFUSAL_BAD_VIEW},
		{"a player listed twice", func(d *duel) netcode.ShotRequest {
			r := d.req(netcode.View{From: d.w.tick, To: d.w.tick})
			r.Views = append(r.Views, r.Views[0])
			return r
		}, tankv1.ShotRefusal_SHOT_REFUSAL_BAD_VIEW},
		{"more views than players", func(d *duel) netcode.ShotRequest {
			r := d.req()
			for i := range d.w.cfg.MaxPlayers + 1 {
				r.Views = append(r.Views, netcode.TankView{ID: uint32(100 + i), View: netcode.View{From: d.w.tick, To: d.w.tick}})
			}
			return r
		}, tankv1.ShotRefusal_SHOT_REFUSAL_BAD_VIEW},
		{"view in the future", func(d *duel) netcode.ShotRequest {
			return d.req(netcode.View{From: d.w.tick, To: d.w.tick + 1, Fraction: 0.5})
		}, tankv1.ShotRefusal_SHOT_REFUSAL_FUTURE_VIEW},
		{"view beyond the rewind window", func(d *duel) netcode.ShotRequest {
			old := d.w.tick - netcode.Ticks(d.w.cfg.Rules.RewindWindow)
			return d.req(netcode.View{From: old, To: old})
		}, tankv1.ShotRefusal_SHOT_REFUSAL_VIEW_TOO_OLD},
		{"move tick never sent", func(d *duel) netcode.ShotRequest {
			r := d.req()
			r.MoveTick += 5
			return r
		}, tankv1.ShotRefusal_SHOT_REFUSAL_UNPLAYED_TICK},
		{"move tick long gone", func(d *duel) netcode.ShotRequest {
			r := d.req()
			r.MoveTick -= moveHistory + 1
			return r
		}, tankv1.ShotRefusal_SHOT_REFUSAL_STALE_TICK},
		{"faster than the cooldown", func(d *duel) netcode.ShotRequest {
			d.fire(true)
			return d.req()
		}, tankv1.ShotRefusal_SHOT_REFUSAL_COOLDOWN},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDuel(t, nil)
			for range 40 {
				d.tick(netcode.Input{})
			}
			d.place(5, 10, 4) // a certain hit, were the shot allowed
			req := tt.fire(d)
			before, health := d.w.stats.shots.Load(), d.mark.health
			d.shooterPeer.fires = append(d.shooterPeer.fires, req)
			d.shooterPeer.control = nil
			d.tick(netcode.Input{})
			r := d.lastResult()
			if r.GetVerdict() != tankv1.ShotVerdict_SHOT_VERDICT_REFUSED || r.GetRefusal() != tt.want {
				t.Errorf("ShotResult = %v, want refused: %v", r, tt.want)
			}
			if got := d.w.stats.shotsRefused.snapshot()[wire.RefusalFromProto(tt.want).Label()]; got != 1 {
				t.Errorf("refused %v: counted %d times, want 1", tt.want, got)
			}
			if d.w.stats.shots.Load() != before || d.mark.health != health {
				t.Errorf("a refused shot counted or hurt: shots %d, mark health %d", d.w.stats.shots.Load(), d.mark.health)
			}
			if d.shooterPeer.kicked != "" || d.markPeer.kicked != "" {
				t.Errorf("a bad Fire kicked someone: %q %q", d.shooterPeer.kicked, d.markPeer.kicked)
			}
		})
	}
}

// req is a lag-compensated Fire for the move tick the next tick applies, viewing the mark at
// each of views.
func (d *duel) req(views ...netcode.View) netcode.ShotRequest {
	r := netcode.ShotRequest{MoveTick: d.move + 1, LagCompensation: true}
	for _, v := range views {
		r.Views = append(r.Views, netcode.TankView{ID: d.mark.id, View: v})
	}
	return r
}

func TestFire_HammeringIsBounded(t *testing.T) {
	d := newDuel(t, nil)
	d.place(5, 10, 4)
	for range 3 * maxWaitingFires {
		d.shooterPeer.fires = append(d.shooterPeer.fires, d.req(netcode.View{From: d.w.tick, To: d.w.tick}))
	}
	d.shooterPeer.control = nil
	d.tick(netcode.Input{})
	if got := d.w.stats.firesDropped.Load(); got != 2*maxWaitingFires {
		t.Errorf("fires dropped = %d, want %d", got, 2*maxWaitingFires)
	}
	if got, want := d.w.stats.shots.Load(), uint64(1); got != want {
		t.Errorf("shots = %d, want %d (the rest are cooldown refusals)", got, want)
	}
	if d.mark.health != d.w.cfg.Rules.MaxHealth-d.w.cfg.Rules.Damage {
		t.Errorf("mark health %d: hammering must hurt no more than one shot", d.mark.health)
	}
}
