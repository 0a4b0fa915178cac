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

// canFire reports whether a shot now would be one the server accepts as far as this client
// knows: we are in the game and alive, a step has been sent, and the cooldown has passed.
func (g *Game) canFire() bool {
	if g.local == nil || g.lastMove == 0 || g.own.Destroyed {
		return false
	}
	cd := netcode.Ticks(g.rules.Cooldown)
	return g.lastShot == 0 || g.lastMove >= g.lastShot+cd
}

// fire sends a Fire for the newest move tick with how every remote tank was drawn this
// frame, and records our own verdict on it. It reports whether a shot was fired.
func (g *Game) fire(lagComp bool) (bool, error) {
	if !g.canFire() {
		return false, nil
	}
	req, shot := g.aimShot(lagComp)
	if err := g.link.Send(wire.Fire(req)); err != nil {
		return false, err
	}
	g.record(shot)
	return true, nil
}

// aimShot builds the Fire for the newest move tick, listing how every remote tank was drawn
// this frame, and our own verdict: the same hitscan the server runs, on what we drew.
func (g *Game) aimShot(lagComp bool) (netcode.ShotRequest, Shot) {
	req := netcode.ShotRequest{MoveTick: g.lastMove, LagCompensation: lagComp}
	g.targets = g.targets[:0]
	ids := make([]uint32, 0, len(g.remotes))
	for id := range g.remotes {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		rm := g.remotes[id]
		if rm.Interp.Len() == 0 {
			continue
		}
		req.Views = append(req.Views, netcode.TankView{ID: id, View: rm.Interp.View()})
		if rm.target() {
			g.targets = append(g.targets, netcode.Target{ID: id, Pose: rm.Pose})
		}
	}
	origin := g.local.Predicted()
	shot := Shot{MoveTick: req.MoveTick, At: g.Now(), LagComp: lagComp, Origin: origin,
		Trace: netcode.Hitscan(&g.welcome.Arena, origin, g.rules.ShotRange, g.targets)}
	if shot.Trace.Hit {
		shot.Aimed = g.remotes[shot.Trace.TargetID].Pose
	}
	return req, shot
}

// record counts a shot just sent and shows its predicted tracer.
func (g *Game) record(shot Shot) {
	if shot.Trace.Hit {
		g.shots.ClientHits++
	}
	g.lastShot = shot.MoveTick
	g.shots.Fired++
	if len(g.pending) == maxPending {
		g.pending = g.pending[1:]
	}
	g.pending = append(g.pending, shot)
	g.last1 = shot
	g.addTracer(Tracer{ShooterID: g.welcome.PlayerID, Own: true, At: shot.At, FromX: shot.Origin.X, FromY: shot.Origin.Y,
		ToX: shot.Trace.EndX, ToY: shot.Trace.EndY, Hit: shot.Trace.Hit})
}

// receiveShotResult matches the server's judgement to the shot it belongs to.
func (g *Game) receiveShotResult(r netcode.ShotResult) {
	i := slices.IndexFunc(g.pending, func(s Shot) bool { return s.MoveTick == r.MoveTick })
	if i < 0 {
		return // forgotten (beyond maxPending) or not ours to judge
	}
	shot := g.pending[i]
	g.pending = slices.Delete(g.pending, i, i+1)
	shot.Result = &r
	if g.last1.MoveTick == shot.MoveTick {
		g.last1 = shot
	}
	switch r.Verdict {
	case netcode.VerdictRefused:
		if g.shots.Refused == nil {
			g.shots.Refused = map[string]int{}
		}
		g.shots.Refused[r.Refusal.Label()]++
		return
	case netcode.VerdictHit:
		g.shots.Hits++
	}
	g.shots.Judged++
	serverHit := r.Verdict == netcode.VerdictHit
	if shot.LagComp {
		g.shots.LagCompJudged++
		if serverHit {
			g.shots.LagCompHits++
		}
	}
	if serverHit == shot.Trace.Hit && r.TargetID == shot.Trace.TargetID {
		g.shots.Agreed++
	} else if shot.Trace.Hit && !serverHit {
		g.shots.SawHitServerMiss++
		if math.Hypot(r.OriginX-shot.Origin.X, r.OriginY-shot.Origin.Y) > originSlack {
			g.shots.SawHitMoved++
		}
	}
	if r.LagCompensated && len(g.rewinds) < maxRewinds {
		g.rewinds = append(g.rewinds, r.RewindMs)
	}
}

// Fire asks for a shot on the next Update, with lag compensation as lagComp says. A shot the
// cooldown or a destroyed tank does not allow is skipped without asking the server.
func (g *Game) Fire(lagComp bool) { g.wantFire, g.wantLagComp = true, lagComp }

// ShotStats returns the shot counters so far.
func (g *Game) ShotStats() ShotStats { return g.shots }

// LastShot returns our most recent shot and whether there has been one.
func (g *Game) LastShot() (Shot, bool) { return g.last1, g.last1.MoveTick != 0 }

// Own returns our tank's health and score as the newest snapshot showed them.
func (g *Game) Own() wire.Combat { return g.own }
