package world

import (
	"slices"

	"tanknet/netcode"
)

// maxWaitingFires is how many Fires a player may have waiting for their MoveInput to be
// simulated (when its time budget defers inputs). An honest client fires at most once per
// cooldown (10 ticks by default; see cooldown.go).
const maxWaitingFires = 8

// Fire hands the world a shot t's client sent (a Fire), to be judged once the move it
// follows is simulated. It returns false, and the shot is dropped unanswered, when
// maxWaitingFires of t's shots already wait.
func (w *World) Fire(t *Tank, req netcode.ShotRequest) bool {
	if len(t.fires) >= maxWaitingFires {
		return false
	}
	t.fires = append(t.fires, req)
	return true
}

// judgeFires judges every queued Fire whose move tick has been simulated, in player order.
// A Fire whose MoveInput is queued but not yet simulated waits for a later tick.
func (w *World) judgeFires() {
	for _, t := range w.tanks {
		n := 0
		for _, req := range t.fires {
			if req.MoveTick > t.ack && req.MoveTick <= t.last && !t.destroyed {
				t.fires[n] = req
				n++
				continue
			}
			w.out.Shots = append(w.out.Shots, w.judge(t, req))
		}
		clear(t.fires[n:])
		t.fires = t.fires[:n]
	}
}

// judge decides one shot of t's.
func (w *World) judge(t *Tank, req netcode.ShotRequest) JudgedShot {
	js := JudgedShot{Shooter: t.id, Request: req, Result: netcode.ShotResult{MoveTick: req.MoveTick, ServerTick: w.tick}}
	res := &js.Result
	move, refusal := w.checkShot(t, req)
	origin := move.pose
	if refusal != netcode.RefusalNone {
		res.Verdict, res.Refusal = netcode.VerdictRefused, refusal
		return js
	}
	t.shots.fire(move.granted, w.tick, w.cfg.Rules.Cooldown)
	w.targets = w.targets[:0]
	if req.LagCompensation {
		res.LagCompensated = true
		earliest := float64(w.tick)
		for _, v := range req.Views {
			earliest = min(earliest, v.View.Tick())
			if pose, ok := w.hist.rewound(v.ID, v.View); ok {
				w.targets = append(w.targets, netcode.Target{ID: v.ID, Pose: pose})
			}
		}
		res.RewindMs = (float64(w.tick) - earliest) * float64(netcode.StepInterval.Milliseconds())
	} else {
		start := len(w.sighted)
		for _, o := range w.tanks {
			if o != t && !o.destroyed && w.inView(t, o) {
				w.targets = append(w.targets, netcode.Target{ID: o.id, Pose: o.pose})
				w.sighted = append(w.sighted, o.id)
			}
		}
		js.Sighted = slices.Clip(w.sighted[start:])
	}
	tr := netcode.Hitscan(&w.cfg.Arena, origin, w.cfg.Rules.ShotRange, w.targets)
	res.OriginX, res.OriginY, res.EndX, res.EndY = origin.X, origin.Y, tr.EndX, tr.EndY
	res.Verdict = netcode.VerdictMiss
	if tr.Hit {
		res.Verdict, res.TargetID = netcode.VerdictHit, tr.TargetID
		for _, tg := range w.targets {
			if tg.ID == tr.TargetID {
				res.TargetPose = tg.Pose
				break
			}
		}
		res.Damage, js.Kill = w.damage(t, tr.TargetID)
	}
	return js
}

// checkShot returns the shooter's pose and game time at the shot's move tick, or why the
// shot is refused.
func (w *World) checkShot(t *Tank, req netcode.ShotRequest) (movePose, netcode.ShotRefusal) {
	switch {
	case t.destroyed:
		return movePose{}, netcode.RefusalDestroyed
	case req.MoveTick > t.last:
		return movePose{}, netcode.RefusalUnplayedTick
	}
	move, ok := t.moveAt(req.MoveTick)
	if !ok {
		return movePose{}, netcode.RefusalStaleTick
	}
	if !t.shots.allows(move.granted, w.tick, w.cfg.Rules.Cooldown) {
		return movePose{}, netcode.RefusalCooldown
	}
	if len(req.Views) > w.cfg.MaxPlayers {
		return movePose{}, netcode.RefusalBadView
	}
	window := netcode.Ticks(w.cfg.Rules.RewindWindow)
	for i, v := range req.Views {
		switch {
		case !v.View.Valid() || (i > 0 && v.ID <= req.Views[i-1].ID) || v.ID == t.id:
			return movePose{}, netcode.RefusalBadView
		case v.View.To >= w.tick: // the newest snapshot sent is the previous tick's
			return movePose{}, netcode.RefusalFutureView
		case req.LagCompensation && (w.tick-v.View.From > window || !w.viewRecent(t, v.View)):
			return movePose{}, netcode.RefusalViewTooOld
		case req.LagCompensation && !w.viewSent(t, v.ID, v.View):
			return movePose{}, netcode.RefusalBadView
		}
	}
	return move, netcode.RefusalNone
}
