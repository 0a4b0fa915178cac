package client

import (
	"math"
	"testing"
	"time"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/wire"
)

// armedGame is an offline Game with the default rules, us at (5, 10) facing east and
// player 2 four units ahead, after four snapshots (the last with extra per player) and a
// frame that samples them.
func armedGame(t *testing.T, extra map[uint32]func(*tankv1.PlayerState)) *Game {
	t.Helper()
	g, sess, start := offlineGame(t)
	sess.welcome.Rules = netcode.DefaultRules()
	g.welcome, g.rules = sess.welcome, sess.welcome.Rules
	var at time.Time
	for i := range 4 {
		at = start.Add(time.Duration(i) * 50 * time.Millisecond)
		msg := snapshotMsg(uint32(i+1), map[uint32]netcode.State{1: {Pose: netcode.Pose{X: 5, Y: 10}}, 2: {Pose: netcode.Pose{X: 9, Y: 10}}})
		for _, ps := range msg.GetSnapshot().GetPlayers() {
			ps.Health = 100
			if f := extra[ps.GetPlayerId()]; f != nil && i == 3 {
				f(ps)
			}
		}
		sess.queue = append(sess.queue, Received{At: at, Msg: decoded(msg)})
	}
	at = at.Add(120 * time.Millisecond)
	g.pace.last = at
	if err := g.Update(at, netcode.Input{}); err != nil {
		t.Fatal(err)
	}
	g.pred.lastMove = 7 // as if seven steps had been sent
	return g
}

func TestGame_ShotReportsWhatWasDrawn(t *testing.T) {
	g := armedGame(t, nil)
	if !g.canFire() {
		t.Fatal("canFire() = false with a live tank, a sent step and no previous shot")
	}
	req, shot := g.aimShot(true)
	rm := g.Remotes()[2]
	want := netcode.TankView{ID: 2, View: rm.Interp.View()}
	if req.MoveTick != 7 || !req.LagCompensation || len(req.Views) != 1 || req.Views[0] != want {
		t.Fatalf("aimShot() request = %+v, want move tick 7 with view %+v", req, want)
	}
	if !shot.Trace.Hit || shot.Trace.TargetID != 2 || shot.Aimed != rm.Pose || shot.Trace.Distance != 4-0.6 {
		t.Errorf("aimShot() verdict = %+v aimed %v, want a hit on 2 at distance 3.4, aimed at %v", shot.Trace, shot.Aimed, rm.Pose)
	}
	g.combat.record(shot, g.welcome.PlayerID)
	if g.canFire() {
		t.Error("canFire() = true right after a shot: the cooldown must hold")
	}
	g.pred.lastMove += netcode.Ticks(g.rules.Cooldown)
	if !g.canFire() {
		t.Error("canFire() = false a full cooldown of move ticks later")
	}
	if tr := g.Tracers(shot.At); len(tr) != 1 || !tr[0].Own || !tr[0].Hit {
		t.Errorf("Tracers() = %+v, want our own predicted hit", tr)
	}
	if tr := g.Tracers(shot.At + TracerLife() + time.Millisecond); len(tr) != 0 {
		t.Errorf("Tracers() after its life = %+v, want none", tr)
	}
}

func TestGame_DestroyedTanksAreNotTargets(t *testing.T) {
	g := armedGame(t, map[uint32]func(*tankv1.PlayerState){2: func(ps *tankv1.PlayerState) { ps.Destroyed, ps.Health = true, 0 }})
	g.Remotes()[2].Pose, _ = g.Remotes()[2].Interp.Sample(g.Now() + time.Second) // hold the newest: the wreck
	_, shot := g.aimShot(true)
	if shot.Trace.Hit {
		t.Errorf("shot at a wreck = %+v, want a miss: it is no target", shot.Trace)
	}
	if c := g.Remotes()[2].Combat; !c.Destroyed {
		t.Errorf("remote combat = %+v, want destroyed", c)
	}
	me := armedGame(t, map[uint32]func(*tankv1.PlayerState){1: func(ps *tankv1.PlayerState) { ps.Destroyed, ps.Deaths = true, 1 }})
	if me.canFire() || me.Own().Deaths != 1 {
		t.Errorf("destroyed: canFire() = %v, Own() = %+v; want no shot and one death", me.canFire(), me.Own())
	}
}

func TestGame_ShotResultsCounted(t *testing.T) {
	g := armedGame(t, nil)
	hit, miss := tankv1.ShotVerdict_SHOT_VERDICT_HIT, tankv1.ShotVerdict_SHOT_VERDICT_MISS
	results := []struct {
		sawHit bool
		result *tankv1.ShotResult
	}{
		{true, &tankv1.ShotResult{Verdict: hit, TargetId: 2, LagCompensated: true, RewindMs: 150}},
		{true, &tankv1.ShotResult{Verdict: miss}},
		{false, &tankv1.ShotResult{Verdict: miss}},
		{false, &tankv1.ShotResult{Verdict: hit, TargetId: 2}},
		{true, &tankv1.ShotResult{Verdict: tankv1.ShotVerdict_SHOT_VERDICT_REFUSED, Refusal: tankv1.ShotRefusal_SHOT_REFUSAL_VIEW_TOO_OLD}},
		// Seen to hit, missed from where the server had our tank: pushed, not where we were.
		{true, &tankv1.ShotResult{Verdict: miss, Origin: &tankv1.Vec2{X: 0.5}}},
	}
	for i, r := range results {
		shot := Shot{MoveTick: uint32(10 * (i + 1)), Trace: netcode.ShotTrace{Hit: r.sawHit}, LagComp: i == 0}
		if r.sawHit {
			shot.Trace.TargetID = 2
		}
		g.combat.record(shot, g.welcome.PlayerID)
		r.result.MoveTick = shot.MoveTick
		g.receive(Received{Msg: decoded(&tankv1.ServerMessage{Kind: &tankv1.ServerMessage_ShotResult{ShotResult: r.result}})})
	}
	want := ShotStats{Fired: 6, ClientHits: 4, Judged: 5, Hits: 2, Agreed: 2, SawHitServerMiss: 2, SawHitMoved: 1,
		LagCompJudged: 1, LagCompHits: 1, Refused: map[string]int{"view_too_old": 1}}
	got := g.ShotStats()
	if got.Fired != want.Fired || got.ClientHits != want.ClientHits || got.Judged != want.Judged || got.Hits != want.Hits ||
		got.Agreed != want.Agreed || got.SawHitServerMiss != want.SawHitServerMiss || got.SawHitMoved != want.SawHitMoved ||
		got.LagCompJudged != want.LagCompJudged || got.LagCompHits != want.LagCompHits || got.Refused["view_too_old"] != 1 {
		t.Errorf("ShotStats() = %+v, want %+v", got, want)
	}
	if a := got.Agreement(); a != 0.4 {
		t.Errorf("Agreement() = %v, want 0.4", a)
	}
	if r := g.Report().RewindsMs; len(r) != 1 || r[0] != 150 {
		t.Errorf("Report().RewindsMs = %v, want [150]", r)
	}
	if last, ok := g.LastShot(); !ok || last.Result == nil || last.Result.OriginX != 0.5 {
		t.Errorf("LastShot() = %+v, want the last one with its answer", last)
	}
}

func TestGame_AimTurnsTowardTheNearestTarget(t *testing.T) {
	g := armedGame(t, nil)
	if a := g.Aim(); a.TargetID != 2 || !a.Aligned || a.Turn != 0 {
		t.Errorf("Aim() dead ahead = %+v, want target 2, aligned, no turn", a)
	}
	g.others.tanks[2].Pose = netcode.Pose{X: 5, Y: 14} // straight above us: a quarter turn left
	if a := g.Aim(); a.TargetID != 2 || a.Aligned || a.Turn != 1 {
		t.Errorf("Aim() at a tank to our left = %+v, want a full left turn, not aligned", a)
	}
	g.others.tanks[2].Pose = netcode.Pose{X: 9, Y: 9.5} // a little to the right: within the hull
	want := -math.Atan2(0.5, 4) / (2.5 * 0.05)
	if a := g.Aim(); !a.Aligned || math.Abs(a.Turn-want) > 1e-12 {
		t.Errorf("Aim() at a tank a little to the right = %+v, want aligned, turn %v", a, want)
	}
	g.others.tanks[2].Pose = netcode.Pose{X: 39, Y: 10} // dead ahead, beyond range
	if a := g.Aim(); a.TargetID != 2 || a.Aligned || a.Turn != 0 {
		t.Errorf("Aim() at a tank beyond range = %+v, want it as the target, not aligned", a)
	}
	g.others.tanks[2].Combat.Destroyed = true
	g.others.tanks[2].alive.record(4, false)
	if a := g.Aim(); a.TargetID != 0 {
		t.Errorf("Aim() with only a wreck = %+v, want nothing to aim at", a)
	}
}

func TestGame_ShotsAndKillsFromOthers(t *testing.T) {
	g := armedGame(t, nil)
	at := time.Unix(1000, 0).Add(time.Second)
	g.receive(Received{At: at, Msg: decoded(&tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Shot{Shot: &tankv1.Shot{
		ShooterId: 2, Origin: &tankv1.Vec2{X: 9, Y: 10}, End: &tankv1.Vec2{X: 5.6, Y: 10}, TargetId: 1}}})})
	g.receive(Received{At: at, Msg: decoded(&tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Kill{Kill: &tankv1.Kill{KillerId: 2, VictimId: 1}}})})
	now := at.Sub(g.pace.epoch)
	if tr := g.Tracers(now); len(tr) != 1 || tr[0].Own || tr[0].ShooterID != 2 || tr[0].ToX != 5.6 {
		t.Errorf("Tracers() = %+v, want player 2's shot", tr)
	}
	if k := g.Kills(); len(k) != 1 || k[0].KillerID != 2 || k[0].VictimID != 1 {
		t.Errorf("Kills() = %+v, want 2 destroyed 1", k)
	}
}

// TestGame_WreckIsNotDrawnMoving: a destroyed tank's inputs are applied as zero, so the
// partial step between sent steps must not draw it driving off with the keys held; a live
// tank with the same keys is drawn ahead of its last step.
func TestGame_WreckIsNotDrawnMoving(t *testing.T) {
	for _, destroyed := range []bool{false, true} {
		g := armedGame(t, map[uint32]func(*tankv1.PlayerState){1: func(ps *tankv1.PlayerState) { ps.Destroyed = destroyed }})
		at := g.pace.last.Add(30 * time.Millisecond) // within a step: nothing is sent
		if err := g.Update(at, netcode.Input{Throttle: 1}); err != nil {
			t.Fatal(err)
		}
		l := g.Local()
		if moved := l.Visible() != l.Predicted(); moved == destroyed {
			t.Errorf("destroyed %v: drawn at %v, last step at %v; want it drawn ahead only when alive", destroyed, l.Visible(), l.Predicted())
		}
	}
}

// TestGame_AimAtOneTank: AimAt aims at the tank named, whether or not it is the nearest,
// and says aligned only when a shot would hit that tank.
func TestGame_AimAtOneTank(t *testing.T) {
	g := armedGame(t, nil)
	if a := g.AimAt(2); a.TargetID != 2 || !a.Aligned || math.Abs(a.Turn) > 1e-9 {
		t.Errorf("AimAt(2) with 2 straight ahead = %+v, want it aligned with no turn", a)
	}
	if a := g.AimAt(99); a != (Aim{}) {
		t.Errorf("AimAt a tank not drawn = %+v, want the zero Aim", a)
	}
}

// TestGame_AWreckClaimsNoPush: with contact predicted a live tank pushes against the other
// tanks it was sent, but a wreck claims no push: the server applies a wreck's inputs, pushes
// included, as zero, so a push would be a misprediction every step until the respawn.
func TestGame_AWreckClaimsNoPush(t *testing.T) {
	for _, destroyed := range []bool{false, true} {
		g := armedGame(t, map[uint32]func(*tankv1.PlayerState){1: func(ps *tankv1.PlayerState) { ps.Destroyed = destroyed }})
		if got := g.contactOthers(); (len(got) == 0) != destroyed {
			t.Errorf("destroyed %v: contactOthers() = %v, want tank 2 alive and nothing as a wreck", destroyed, got)
		}
	}
}

func TestCombat_CooldownAndWreck(t *testing.T) {
	var c combat
	cd := netcode.DefaultRules().Cooldown
	if c.canFire(0, cd) {
		t.Error("a shot before any step was sent")
	}
	if !c.canFire(7, cd) {
		t.Fatal("no first shot")
	}
	c.record(Shot{MoveTick: 7}, 1)
	if c.canFire(7+netcode.Ticks(cd)-1, cd) {
		t.Error("a shot within the cooldown")
	}
	if !c.canFire(7+netcode.Ticks(cd), cd) {
		t.Error("no shot a whole cooldown later")
	}
	if !c.ownState(wire.Combat{Destroyed: true, Deaths: 1}, 9) || c.canFire(100, cd) {
		t.Error("a wreck may fire")
	}
	if c.ownState(wire.Combat{}, 8) || c.own.Deaths != 1 {
		t.Errorf("an older state replaced the newer: own %+v", c.own)
	}
}

func TestCombat_AFireIsTakenOnce(t *testing.T) {
	var c combat
	if fire, _ := c.take(); fire {
		t.Fatal("a fire never asked for")
	}
	c.ask(true)
	if fire, lagComp := c.take(); !fire || !lagComp {
		t.Errorf("take() = %v, %v; want the fire with lag compensation", fire, lagComp)
	}
	if fire, _ := c.take(); fire {
		t.Error("one Fire fired twice")
	}
}

// TestCombat_JudgeHitsWhatWasDrawn: our verdict is the server's hitscan on the targets as
// drawn, and a hit remembers where the target was drawn.
func TestCombat_JudgeHitsWhatWasDrawn(t *testing.T) {
	arena := netcode.DefaultArena()
	c := combat{targets: []netcode.Target{{ID: 3, Pose: netcode.Pose{X: 9, Y: 30}}, {ID: 2, Pose: netcode.Pose{X: 9, Y: 10}}}}
	origin := netcode.Pose{X: 5, Y: 10} // facing east, at 2
	shot := c.judge(&arena, netcode.DefaultRules().ShotRange, 7, time.Second, origin, true)
	if !shot.Trace.Hit || shot.Trace.TargetID != 2 || shot.Aimed != c.targets[1].Pose || shot.MoveTick != 7 || !shot.LagComp {
		t.Errorf("judge = %+v, want a hit on 2 aimed where it was drawn", shot)
	}
	c.targets = c.targets[:1]
	if shot := c.judge(&arena, netcode.DefaultRules().ShotRange, 8, time.Second, origin, false); shot.Trace.Hit || shot.Aimed != (netcode.Pose{}) {
		t.Errorf("judge with nothing ahead = %+v, want a miss", shot)
	}
}

func TestCombat_TheFeedKeepsTheNewest(t *testing.T) {
	var c combat
	for i := range maxKillNotes + 2 {
		c.kill(time.Duration(i)*time.Second, netcode.Kill{KillerID: uint32(i + 1), VictimID: 9})
	}
	if len(c.kills) != maxKillNotes || c.kills[0].KillerID != 3 {
		t.Errorf("kills %+v, want the newest %d from killer 3", c.kills, maxKillNotes)
	}
	c.shotSeen(0, netcode.Shot{ShooterID: 1}, 1)
	if len(c.tracers) != 0 {
		t.Error("our own shot, told back by the server, drew a second tracer")
	}
	c.shotSeen(0, netcode.Shot{ShooterID: 2, TargetID: 1}, 1)
	c.shotSeen(tracerLife/2, netcode.Shot{ShooterID: 3}, 1)
	if got := c.tracersAt(tracerLife + time.Millisecond); len(got) != 1 || got[0].ShooterID != 3 {
		t.Errorf("tracers after the first faded = %+v, want only 3's", got)
	}
	if got := c.tracersAt(0); len(got) != 2 || !got[0].Hit || got[1].Hit {
		t.Errorf("tracers at 0 = %+v, want 2's hit then 3's miss", got)
	}
}

// TestCombat_RespawnedIsOurFirstStateBackFromBeingDestroyed: the state our tank comes back
// in after a destroyed one, or after a death we never saw the states of, is a respawn; an
// older state, a wreck's, or a live tank's that merely moved is not, nor is the first state.
func TestCombat_RespawnedIsOurFirstStateBackFromBeingDestroyed(t *testing.T) {
	dead, back := wire.Combat{Destroyed: true, Deaths: 1}, wire.Combat{Health: 100, Deaths: 1}
	tests := []struct {
		name string
		last wire.Combat // our state of tick 9 (none if zero tick)
		tick uint32
		now  wire.Combat // our state of tick tick
		want bool
	}{
		{"back from a wreck", dead, 10, back, true},
		{"back from a death we never saw", wire.Combat{Health: 25}, 10, back, true},
		{"still a wreck", dead, 10, dead, false},
		{"alive, moving", back, 10, back, false},
		{"destroyed now", back, 10, wire.Combat{Destroyed: true, Deaths: 2}, false},
		{"an older state", dead, 8, back, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c combat
			c.ownState(tt.last, 9)
			if got := c.respawned(tt.now, tt.tick); got != tt.want {
				t.Errorf("respawned(%+v, %d) after %+v at 9 = %v, want %v", tt.now, tt.tick, tt.last, got, tt.want)
			}
		})
	}
	var first combat
	if first.respawned(wire.Combat{Health: 100, Deaths: 3}, 5) {
		t.Error("our first state counted as a respawn")
	}
}
