package client

import (
	"math"
	"slices"
	"time"

	"tanknet/netcode"
	"tanknet/wire"
)

// aliveHistory is how many server ticks of a remote tank's destroyed flag a Game remembers:
// more than an Interpolator buffers (32), so every tick a View can name is known.
const aliveHistory = 64

// aliveAt remembers, per server tick, whether a remote tank was alive in that snapshot.
type aliveAt [aliveHistory]struct {
	tick  uint32
	alive bool
}

func (a *aliveAt) record(tick uint32, alive bool) {
	a[tick%aliveHistory] = struct {
		tick  uint32
		alive bool
	}{tick, alive}
}

// alive reports whether the tank was alive in tick's snapshot; false when unknown.
func (a *aliveAt) alive(tick uint32) bool {
	e := a[tick%aliveHistory]
	return e.tick == tick && tick != 0 && e.alive
}

// target reports whether rm, as last drawn, is a target: alive in both states its view
// blends. The server applies the same rule to its own record.
func (rm *Remote) target() bool {
	v := rm.Interp.View()
	return rm.Interp.Len() > 0 && rm.alive.alive(v.From) && rm.alive.alive(v.To)
}

// ShotStats count this client's shots and how the server judged them.
type ShotStats struct {
	Fired      int // Fires sent
	ClientHits int // Fires whose shooter-side verdict on what was drawn was a hit
	Judged     int // Fires the server accepted and judged (hit or miss)
	Hits       int // judged hits: hits confirmed by the server
	// Agreed counts judged shots where the server's verdict equals the shooter's: both
	// missed, or both hit the same tank.
	Agreed int
	// SawHitServerMiss counts judged shots the shooter saw hit but the server called a miss.
	SawHitServerMiss int
	// SawHitMoved counts those of SawHitServerMiss whose shell the server fired from
	// elsewhere than we predicted our tank (by more than originSlack): the server had it
	// pushed (tank contact) or placed where our prediction had not yet seen it, so the shot
	// we drew is not the shot it judged. On a perfect link this is the only way a shot we saw
	// hit can miss with lag compensation.
	SawHitMoved int
	// LagCompJudged and LagCompHits count the judged shots that asked for lag compensation
	// and the hits among them; Judged and Hits less these are the shots judged without it.
	LagCompJudged, LagCompHits int
	// Refused counts refused Fires by reason (netcode.ShotRefusal.Label).
	Refused map[string]int
}

// Agreement returns Agreed / Judged, or 0 before the first judged shot.
func (s ShotStats) Agreement() float64 {
	if s.Judged == 0 {
		return 0
	}
	return float64(s.Agreed) / float64(s.Judged)
}

// Shot is one of our shots as we fired it, and what the server said about it once it has.
type Shot struct {
	MoveTick uint32
	At       time.Duration // local time it was fired
	LagComp  bool          // lag compensation was asked for
	Origin   netcode.Pose  // our predicted pose at MoveTick
	Trace    netcode.ShotTrace
	// Aimed is the pose we drew the tank we hit at (valid when Trace.Hit).
	Aimed netcode.Pose
	// Result is the server's answer, nil until it arrives.
	Result *netcode.ShotResult
}

// ServerTarget returns the pose the server tested its hit against, and false when the
// server has not answered or did not report a hit.
func (s *Shot) ServerTarget() (netcode.Pose, bool) {
	if s.Result == nil || s.Result.Verdict != netcode.VerdictHit {
		return netcode.Pose{}, false
	}
	return s.Result.TargetPose, true
}

// originSlack is how far the server's origin of a shot may lie from ours and still be the
// same place: the wire carries positions as float64, so an unmoved tank matches exactly.
const originSlack = 1e-6

// Bounds on what a Game keeps for drawing and reports.
const (
	tracerLife   = 400 * time.Millisecond // a tracer is a flash, not a trail
	maxTracers   = 32                     // 16 players each firing twice within tracerLife
	maxKillNotes = 5                      // a short feed under the scoreboard
	maxPending   = 16                     // unanswered shots remembered; a cooldown of 50 ms at 800 ms RTT
	maxRewinds   = 4096                   // rewind samples kept for percentiles: minutes of play
)

// combat is our tank's fight: its health and score, our shots and the server's answers to
// them, and the tracers and kills to draw (feed.go).
type combat struct {
	own         wire.Combat // our tank's health and score, from our newest state
	ownTick     uint32      // server tick of own
	lastShot    uint32      // move tick of our newest shot
	wantFire    bool        // Fire was called since the last Update
	wantLagComp bool
	targets     []netcode.Target // scratch: the tanks a shot or an aim may hit, as drawn
	shots       ShotStats
	pending     []Shot // fired, not yet answered, oldest first
	last1       Shot   // the newest shot, with its answer once it came
	tracers     []Tracer
	kills       []KillNote
	rewinds     []float64
}

// cameBack reports whether a tank whose newest state had health and score before is back
// from being destroyed in a state with after: a respawn, which the server places anew rather
// than drives there. A death count that changed while the tank is alive in both counts too: a
// destruction whose states never came.
func cameBack(before, after wire.Combat) bool {
	return !after.Destroyed && (before.Destroyed || after.Deaths != before.Deaths)
}

// respawned reports whether our state of server tick tick, with health and score cb, is the
// first we see of our tank back from being destroyed (cameBack), newer than the last.
func (c *combat) respawned(cb wire.Combat, tick uint32) bool {
	return c.ownTick != 0 && tick > c.ownTick && cameBack(c.own, cb)
}

// ownState takes our tank's health and score c from our state of server tick tick, and
// reports whether that state is the newest yet (an older one changes nothing).
func (c *combat) ownState(cb wire.Combat, tick uint32) bool {
	if tick <= c.ownTick {
		return false
	}
	c.own, c.ownTick = cb, tick
	return true
}

// canFire reports whether a shot at move tick lastMove (0: none sent yet) would be one the
// server accepts as far as we know: our tank is alive and the cooldown has passed.
func (c *combat) canFire(lastMove uint32, cooldown time.Duration) bool {
	if lastMove == 0 || c.own.Destroyed {
		return false
	}
	return c.lastShot == 0 || lastMove >= c.lastShot+netcode.Ticks(cooldown)
}

// ask notes a Fire for the next Update; take returns it and clears it.
func (c *combat) ask(lagComp bool) { c.wantFire, c.wantLagComp = true, lagComp }

func (c *combat) take() (fire, lagComp bool) {
	fire, c.wantFire = c.wantFire, false
	return fire, c.wantLagComp
}

// judge returns our shot of move tick from origin at local time at, with our own verdict on
// it: the hitscan the server runs, against c.targets as we drew them.
func (c *combat) judge(arena *netcode.Arena, shotRange float64, tick uint32, at time.Duration, origin netcode.Pose, lagComp bool) Shot {
	shot := Shot{MoveTick: tick, At: at, LagComp: lagComp, Origin: origin,
		Trace: netcode.Hitscan(arena, origin, shotRange, c.targets)}
	if shot.Trace.Hit {
		i := slices.IndexFunc(c.targets, func(t netcode.Target) bool { return t.ID == shot.Trace.TargetID })
		shot.Aimed = c.targets[i].Pose
	}
	return shot
}

// record counts a shot of player self just sent and shows its predicted tracer.
func (c *combat) record(shot Shot, self uint32) {
	if shot.Trace.Hit {
		c.shots.ClientHits++
	}
	c.lastShot = shot.MoveTick
	c.shots.Fired++
	if len(c.pending) == maxPending {
		c.pending = c.pending[1:]
	}
	c.pending = append(c.pending, shot)
	c.last1 = shot
	c.addTracer(Tracer{ShooterID: self, Own: true, At: shot.At, FromX: shot.Origin.X, FromY: shot.Origin.Y,
		ToX: shot.Trace.EndX, ToY: shot.Trace.EndY, Hit: shot.Trace.Hit})
}

// result matches the server's judgement to the shot it belongs to and counts it.
func (c *combat) result(r netcode.ShotResult) {
	i := slices.IndexFunc(c.pending, func(s Shot) bool { return s.MoveTick == r.MoveTick })
	if i < 0 {
		return // forgotten (beyond maxPending) or not ours to judge
	}
	shot := c.pending[i]
	c.pending = slices.Delete(c.pending, i, i+1)
	shot.Result = &r
	if c.last1.MoveTick == shot.MoveTick {
		c.last1 = shot
	}
	if r.Verdict == netcode.VerdictRefused {
		if c.shots.Refused == nil {
			c.shots.Refused = map[string]int{}
		}
		c.shots.Refused[r.Refusal.Label()]++
		return
	}
	c.shots.judged(shot, r)
	if r.LagCompensated && len(c.rewinds) < maxRewinds {
		c.rewinds = append(c.rewinds, r.RewindMs)
	}
}

// judged counts the server's verdict r on shot, which it accepted.
func (s *ShotStats) judged(shot Shot, r netcode.ShotResult) {
	serverHit := r.Verdict == netcode.VerdictHit
	if serverHit {
		s.Hits++
	}
	s.Judged++
	if shot.LagComp {
		s.LagCompJudged++
		if serverHit {
			s.LagCompHits++
		}
	}
	if serverHit == shot.Trace.Hit && r.TargetID == shot.Trace.TargetID {
		s.Agreed++
	} else if shot.Trace.Hit && !serverHit {
		s.SawHitServerMiss++
		if math.Hypot(r.OriginX-shot.Origin.X, r.OriginY-shot.Origin.Y) > originSlack {
			s.SawHitMoved++
		}
	}
}

// canFire reports whether a shot now would be one the server accepts as far as this client
// knows: we are in the game and alive, a step has been sent, and the cooldown has passed.
func (g *Game) canFire() bool {
	return g.pred.local != nil && g.combat.canFire(g.pred.lastMove, g.rules.Cooldown)
}

// fire sends a Fire for the newest move tick with how every remote tank was drawn this
// frame, and records our own verdict on it. It reports whether a shot was fired.
func (g *Game) fire(lagComp bool) (bool, error) {
	if !g.canFire() {
		return false, nil
	}
	req, shot := g.aimShot(lagComp)
	if err := g.uplink.link.Send(wire.Fire(req)); err != nil {
		return false, err
	}
	g.combat.record(shot, g.welcome.PlayerID)
	return true, nil
}

// aimShot builds the Fire for the newest move tick, listing how every remote tank was drawn
// this frame, and our own verdict: the same hitscan the server runs, on what we drew.
func (g *Game) aimShot(lagComp bool) (netcode.ShotRequest, Shot) {
	req := netcode.ShotRequest{MoveTick: g.pred.lastMove, LagCompensation: lagComp}
	req.Views, g.combat.targets = g.others.drawn(req.Views, g.combat.targets[:0])
	shot := g.combat.judge(&g.welcome.Arena, g.rules.ShotRange, req.MoveTick, g.Now(), g.pred.local.Predicted(), lagComp)
	return req, shot
}

// Fire asks for a shot on the next Update, with lag compensation as lagComp says. A shot the
// cooldown or a destroyed tank does not allow is skipped without asking the server.
func (g *Game) Fire(lagComp bool) { g.combat.ask(lagComp) }

// ShotStats returns the shot counters so far.
func (g *Game) ShotStats() ShotStats { return g.combat.shots }

// LastShot returns our most recent shot and whether there has been one.
func (g *Game) LastShot() (Shot, bool) { return g.combat.last1, g.combat.last1.MoveTick != 0 }

// Own returns our tank's health and score as the newest snapshot showed them.
func (g *Game) Own() wire.Combat { return g.combat.own }
