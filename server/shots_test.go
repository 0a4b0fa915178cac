package server

import (
	"math"
	"testing"
	"time"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
)

// The world judges shots (package world's tests cover every verdict and refusal); these
// tests cover what the server does with its verdicts: who is told of a shot, a kill and a
// result, what the snapshot shows, and what the counters count.

// shotDuel is a game with a shooter, a mark and a bystander and no spawn protection, driven
// one tick at a time; each player sends one input per tick and stands still.
type shotDuel struct {
	t                        *testing.T
	g                        *game
	shooter, mark, bystander *player
	peers                    []*fakePeer // shooter, mark, bystander
	move                     uint32      // last move tick sent by each
	quiet                    *fakePeer   // a peer that sends no inputs (away), if any
}

func newShotDuel(t *testing.T, mutate func(*Config)) *shotDuel {
	t.Helper()
	g := newTestWorld(t, func(c *Config) {
		c.Rules.SpawnProtection = 0
		if mutate != nil {
			mutate(c)
		}
	})
	d := &shotDuel{t: t, g: g}
	for i, name := range []string{"shooter", "mark", "bystander"} {
		p, fp := mustJoin(t, g, 0, name)
		d.peers = append(d.peers, fp)
		switch i {
		case 0:
			d.shooter = p
		case 1:
			d.mark = p
		default:
			d.bystander = p
		}
	}
	return d
}

// tick sends one standing input for each player and runs a tick; each peer's control
// messages are then this tick's.
func (d *shotDuel) tick() {
	d.move++
	for _, fp := range d.peers {
		if fp != d.quiet {
			fp.inputs = append(fp.inputs, netcode.PendingInput{Tick: d.move, Duration: netcode.StepInterval})
		}
		fp.control = nil
	}
	d.g.step(time.Duration(d.g.tick()+1) * netcode.StepInterval)
}

// place puts the shooter at (x, y) facing east and the mark dx further east (a placement:
// whole, and unprotected without spawn protection), and runs a tick so the world's history
// and the clients' views have them.
func (d *shotDuel) place(x, y, dx float64) {
	placeAt(d.g, d.shooter, netcode.Pose{X: x, Y: y})
	placeAt(d.g, d.mark, netcode.Pose{X: x + dx, Y: y})
	d.tick()
}

// fire has the shooter send a lag-compensated Fire, for the move tick the next tick
// applies, with views, runs that tick and returns the ShotResult the shooter was sent.
func (d *shotDuel) fire(views ...netcode.TankView) *tankv1.ShotResult {
	d.t.Helper()
	d.peers[0].fires = append(d.peers[0].fires, netcode.ShotRequest{MoveTick: d.move + 1, LagCompensation: true, Views: views})
	d.tick()
	results := controlOf(d.peers[0], (*tankv1.ServerMessage).GetShotResult)
	if len(results) != 1 {
		d.t.Fatalf("tick %d: the shooter was sent %d ShotResults, want 1", d.g.tick(), len(results))
	}
	return results[0]
}

// heldView is a view of the mark's state in the newest snapshot.
func (d *shotDuel) heldView() netcode.TankView {
	return netcode.TankView{ID: d.mark.tank.ID(), View: netcode.View{From: d.g.tick(), To: d.g.tick()}}
}

// wait runs ticks until the cooldown allows another shot.
func (d *shotDuel) wait() {
	for range netcode.Ticks(d.g.cfg.Rules.Cooldown) {
		d.tick()
	}
}

// controlOf returns the messages of one kind among fp's control messages, in order.
func controlOf[M any](fp *fakePeer, get func(*tankv1.ServerMessage) *M) []*M {
	var out []*M
	for _, m := range fp.control {
		if x := get(m); x != nil {
			out = append(out, x)
		}
	}
	return out
}

// Every player hears of a shot fired: a Shot naming the shooter, where it came from and
// the tank it struck.
func TestFire_ShotsAreToldToEveryone(t *testing.T) {
	d := newShotDuel(t, nil)
	d.place(5, 10, 4)
	if r := d.fire(d.heldView()); r.GetVerdict() != tankv1.ShotVerdict_SHOT_VERDICT_HIT {
		t.Fatalf("ShotResult %v, want a hit", r)
	}
	for i, fp := range d.peers {
		shots := controlOf(fp, (*tankv1.ServerMessage).GetShot)
		if len(shots) != 1 {
			t.Fatalf("player %d was sent %d Shots, want 1", i+1, len(shots))
		}
		if s := shots[0]; s.GetShooterId() != d.shooter.tank.ID() || s.GetTargetId() != d.mark.tank.ID() || s.GetOrigin().GetX() != 5 || s.GetServerTick() != d.g.tick() {
			t.Errorf("Shot seen by player %d = %v, want shooter %d hitting %d from x=5 in tick %d", i+1, s, d.shooter.tank.ID(), d.mark.tank.ID(), d.g.tick())
		}
	}
}

// The hits that destroy a tank: each one's ShotResult tells the shooter the damage, the
// kill is told to every player, the snapshot shows the wreck and the tallies, and the
// counters count every shot, hit, kill and respawn.
func TestShots_KillIsToldToEveryoneAndShownInTheSnapshot(t *testing.T) {
	d := newShotDuel(t, nil)
	rules := d.g.cfg.Rules
	d.place(5, 10, 4)
	shots := int(rules.MaxHealth / rules.Damage)
	for i := range shots {
		if i > 0 {
			d.wait()
		}
		r := d.fire(d.heldView())
		if r.GetVerdict() != tankv1.ShotVerdict_SHOT_VERDICT_HIT || r.GetTargetId() != d.mark.tank.ID() || r.GetDamage() != rules.Damage ||
			r.GetTargetPosition().GetX() != 9 || math.Abs(r.GetEnd().GetX()-(9-d.g.cfg.Arena.TankRadius)) > 1e-9 {
			t.Fatalf("shot %d: ShotResult %v, want a hit on %d at x=9 for %d", i+1, r, d.mark.tank.ID(), rules.Damage)
		}
	}
	for i, fp := range d.peers {
		kills := controlOf(fp, (*tankv1.ServerMessage).GetKill)
		if len(kills) != 1 || kills[0].GetKillerId() != d.shooter.tank.ID() || kills[0].GetVictimId() != d.mark.tank.ID() || kills[0].GetServerTick() != d.g.tick() {
			t.Errorf("Kills sent to player %d = %v, want one: killer %d victim %d in tick %d", i+1, kills, d.shooter.tank.ID(), d.mark.tank.ID(), d.g.tick())
		}
	}
	snap := decodeFrame(d.peers[2].snapshot).GetSnapshot().GetPlayers()
	if ps := snap[1]; ps.GetPlayerId() != d.mark.tank.ID() || !ps.GetDestroyed() || ps.GetHealth() != 0 || ps.GetDeaths() != 1 || snap[0].GetKills() != 1 {
		t.Errorf("snapshot after the kill = %v, want the mark destroyed and the kill counted", snap)
	}
	s := d.g.stats
	if s.shots.Load() != uint64(shots) || s.hits.Load() != uint64(shots) || s.kills.Load() != 1 || s.respawns.Load() != 0 {
		t.Errorf("counted shots %d hits %d kills %d respawns %d, want %d, %d, 1, 0",
			s.shots.Load(), s.hits.Load(), s.kills.Load(), s.respawns.Load(), shots, shots)
	}
	for d.mark.tank.Destroyed() && d.g.tick() < 200 {
		d.tick()
	}
	snap = decodeFrame(d.peers[2].snapshot).GetSnapshot().GetPlayers()
	if ps := snap[1]; ps.GetDestroyed() || ps.GetHealth() != rules.MaxHealth || ps.GetDeaths() != 1 || s.respawns.Load() != 1 {
		t.Errorf("after the respawn: snapshot %v, respawns counted %d, want the mark whole again, its death kept, 1", ps, s.respawns.Load())
	}
}

// A refused shot is answered to its shooter alone, with its reason, and counted by that
// reason; a miss is counted as a shot, not a hit, and still told to everyone.
func TestShots_RefusalsAndMissesCounted(t *testing.T) {
	d := newShotDuel(t, nil)
	d.place(15, 12.5, 10) // the centre pillar [18.5, 21.5] stands between them
	if r := d.fire(d.heldView()); r.GetVerdict() != tankv1.ShotVerdict_SHOT_VERDICT_MISS || math.Abs(r.GetEnd().GetX()-18.5) > 1e-9 {
		t.Fatalf("shot through the pillar: %v, want a miss ending at x=18.5", r)
	}
	if n := len(controlOf(d.peers[2], (*tankv1.ServerMessage).GetShot)); n != 1 {
		t.Errorf("the bystander was sent %d Shots of the miss, want 1", n)
	}
	r := d.fire(d.heldView()) // at once: within the cooldown
	if r.GetVerdict() != tankv1.ShotVerdict_SHOT_VERDICT_REFUSED || r.GetRefusal() != tankv1.ShotRefusal_SHOT_REFUSAL_COOLDOWN || r.GetEnd() != nil {
		t.Fatalf("a second shot within the cooldown: %v, want refused for the cooldown, with no trace", r)
	}
	for i, fp := range d.peers {
		if n := len(controlOf(fp, (*tankv1.ServerMessage).GetShot)); n != 0 {
			t.Errorf("player %d was sent %d Shots of a refused shot, want none", i+1, n)
		}
	}
	s := d.g.stats
	refused := s.shotsRefused.snapshot()
	if s.shots.Load() != 1 || s.hits.Load() != 0 || refused[netcode.RefusalCooldown.Label()] != 1 || len(refused) != 1 {
		t.Errorf("counted shots %d hits %d refused %v, want 1, 0 and one for the cooldown", s.shots.Load(), s.hits.Load(), refused)
	}
}

// Hammering costs the server little and gains nothing: a session keeps at most
// maxFiresPerTick Fires for a tick, the world keeps a bounded number waiting, every
// Fire beyond is counted as dropped and every other one answered, and only one shot hurts.
func TestShots_HammeringIsCountedAndBounded(t *testing.T) {
	cfg := DefaultConfig()
	s := newSession(nil, &cfg, new(counters), nil)
	kept := 0
	for range 3 * maxFiresPerTick {
		if s.pushFire(netcode.ShotRequest{MoveTick: 1}) {
			kept++
		}
	}
	if got := len(s.takeFires(nil)); kept != maxFiresPerTick || got != kept {
		t.Errorf("a session kept %d Fires and handed on %d, want %d", kept, got, maxFiresPerTick)
	}
	if !s.pushFire(netcode.ShotRequest{MoveTick: 2}) {
		t.Error("a session refused a Fire after its Fires were taken")
	}

	// A peer that hands the world more than a session would (the fake passes on every one).
	d := newShotDuel(t, nil)
	d.place(5, 10, 4)
	const sent = 24
	for range sent {
		d.peers[0].fires = append(d.peers[0].fires, netcode.ShotRequest{MoveTick: d.move + 1, LagCompensation: true, Views: []netcode.TankView{d.heldView()}})
	}
	d.tick()
	answered := controlOf(d.peers[0], (*tankv1.ServerMessage).GetShotResult)
	dropped := d.g.stats.firesDropped.Load()
	if dropped == 0 || uint64(len(answered))+dropped != sent {
		t.Errorf("%d Fires: %d answered, %d counted as dropped; want some dropped and every other answered", sent, len(answered), dropped)
	}
	if got := d.g.stats.shots.Load(); got != 1 {
		t.Errorf("shots = %d, want 1 (the rest are cooldown refusals)", got)
	}
	if h := d.mark.tank.Health(); h != d.g.cfg.Rules.MaxHealth-d.g.cfg.Rules.Damage {
		t.Errorf("mark health %d: hammering must hurt no more than one shot", h)
	}
}

// On the large arena the server's interest management decides what a shot may name: a view
// of a tank beyond the shooter's view radius, never sent to it, is refused though the tank
// is in the line of fire; once the tank is near enough to be sent, the same shot hits.
func TestShots_BeyondTheViewRadiusRefused(t *testing.T) {
	d := newShotDuel(t, func(c *Config) { c.Arena, c.ViewRadius = netcode.LargeArena(), 3 })
	if d.g.interest == nil {
		t.Fatal("no interest management on the large arena")
	}
	d.place(40, 50, 4) // open ground; the mark 4 units east is beyond the 3-unit radius
	r := d.fire(d.heldView())
	if r.GetVerdict() != tankv1.ShotVerdict_SHOT_VERDICT_REFUSED || r.GetRefusal() != tankv1.ShotRefusal_SHOT_REFUSAL_BAD_VIEW || d.mark.tank.Health() != d.g.cfg.Rules.MaxHealth {
		t.Fatalf("a view of a tank never sent: %v (mark health %d), want refused as a bad view", r, d.mark.tank.Health())
	}
	d.wait()
	d.place(40, 50, 2.5)
	if r := d.fire(d.heldView()); r.GetVerdict() != tankv1.ShotVerdict_SHOT_VERDICT_HIT {
		t.Fatalf("a view of a tank sent: %v, want a hit", r)
	}
}

// A player who said it is away is told no other players' shots and no kill it took no part
// in (its stream waits unacknowledged while its page is frozen); it is still told a kill of
// its own, and the snapshot still shows it all. The others hear of everything as before.
func TestShots_AwayPlayerIsToldOnlyItsOwnKills(t *testing.T) {
	d := newShotDuel(t, nil)
	d.place(5, 10, 4)
	by := d.peers[2]
	by.away, by.awaySent = d.move, true
	d.quiet = by
	d.tick()
	if !d.bystander.tank.Away() {
		t.Fatal("the bystander's Away was not taken")
	}
	rules := d.g.cfg.Rules
	shots := int(rules.MaxHealth / rules.Damage)
	var toldShots, toldKills int
	for i := range shots {
		if i > 0 {
			d.wait()
		}
		if r := d.fire(d.heldView()); r.GetVerdict() != tankv1.ShotVerdict_SHOT_VERDICT_HIT {
			t.Fatalf("shot %d: %v, want a hit", i+1, r)
		}
		toldShots += len(controlOf(by, (*tankv1.ServerMessage).GetShot))
		toldKills += len(controlOf(by, (*tankv1.ServerMessage).GetKill))
		if n := len(controlOf(d.peers[1], (*tankv1.ServerMessage).GetShot)); n != 1 {
			t.Fatalf("shot %d: the mark was told %d Shots, want 1", i+1, n)
		}
	}
	if toldShots != 0 || toldKills != 0 {
		t.Errorf("the away bystander was told %d Shots and %d Kills of others, want none", toldShots, toldKills)
	}
	if !d.bystander.tank.Away() {
		t.Fatal("the bystander came back without sending an input")
	}
	snap := decodeFrame(by.snapshot).GetSnapshot().GetPlayers()
	if !snap[1].GetDestroyed() || snap[0].GetKills() != 1 {
		t.Errorf("the away bystander's snapshot %v, want the mark destroyed and the kill counted", snap)
	}

	// The mark goes away while wrecked; when it is whole again it is killed a second time:
	// an away victim hears of its own death.
	d.peers[1].away, d.peers[1].awaySent = d.move, true
	d.quiet = d.peers[1]
	for d.mark.tank.Destroyed() && d.g.tick() < 400 {
		d.tick()
	}
	if !d.mark.tank.Away() {
		t.Fatal("the mark's Away was not taken")
	}
	placeAt(d.g, d.mark, netcode.Pose{X: 9, Y: 10})
	d.tick()
	var victimKills int
	for i := range shots {
		d.wait()
		if r := d.fire(d.heldView()); r.GetVerdict() != tankv1.ShotVerdict_SHOT_VERDICT_HIT {
			t.Fatalf("second kill, shot %d: %v, want a hit", i+1, r)
		}
		if n := len(controlOf(d.peers[1], (*tankv1.ServerMessage).GetShot)); n != 0 {
			t.Fatalf("second kill, shot %d: the away mark was told %d Shots, want none", i+1, n)
		}
		victimKills += len(controlOf(d.peers[1], (*tankv1.ServerMessage).GetKill))
	}
	if victimKills != 1 {
		t.Errorf("the away mark was told %d Kills of its own death, want 1", victimKills)
	}
}
