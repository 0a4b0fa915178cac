package server

import (
	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/wire"
)

// Bounds on shots a client can make the server judge.
const (
	// maxFiresPerTick is how many Fires a session queues between two ticks. An honest client
	// fires at most once per cooldown (10 ticks by default; see cooldown.go); beyond this, Fires are dropped
	// unanswered and counted, so hammering costs the server almost nothing.
	maxFiresPerTick = 4
	// maxWaitingFires is how many Fires a player may have waiting for their MoveInput to be
	// simulated (when its time budget defers inputs).
	maxWaitingFires = 8
)

// takeFires queues the Fires p's client sent since the last tick. It runs before p's
// inputs are taken, so the MoveInput each Fire follows on the stream is taken this tick too.
func (w *world) takeFires(p *player) {
	p.fires = p.peer.takeFires(p.fires)
	if extra := len(p.fires) - maxWaitingFires; extra > 0 {
		w.stats.firesDropped.Add(uint64(extra))
		p.fires = p.fires[:maxWaitingFires]
	}
}

// judgeFires judges every queued Fire whose move tick has been simulated, in player order.
// A Fire whose MoveInput is queued but not yet simulated waits for a later tick.
func (w *world) judgeFires() {
	for _, p := range w.players {
		n := 0
		for _, req := range p.fires {
			if req.MoveTick > p.ack && req.MoveTick <= p.last && !p.destroyed {
				p.fires[n] = req
				n++
				continue
			}
			w.judge(p, req)
		}
		clear(p.fires[n:])
		p.fires = p.fires[:n]
	}
}

// judge decides one shot of p and tells everyone concerned.
func (w *world) judge(p *player, req netcode.ShotRequest) {
	res := &tankv1.ShotResult{MoveTick: req.MoveTick, ServerTick: w.tick}
	move, refusal := w.checkShot(p, req)
	origin := move.pose
	if refusal != tankv1.ShotRefusal_SHOT_REFUSAL_UNSPECIFIED {
		res.Verdict, res.Refusal = tankv1.ShotVerdict_SHOT_VERDICT_REFUSED, refusal
		w.stats.shotsRefused.add(wire.RefusalFromProto(refusal).Label())
		p.peer.send(w.encode(&tankv1.ServerMessage{Kind: &tankv1.ServerMessage_ShotResult{ShotResult: res}}))
		return
	}
	p.shots.fire(move.granted, w.tick, w.cfg.Rules.Cooldown)
	w.stats.shots.Add(1)
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
		res.RewindMs = (float64(w.tick) - earliest) * float64(tickInterval.Milliseconds())
	} else {
		for _, o := range w.players {
			if o != p && !o.destroyed && w.inView(p, o) {
				w.targets = append(w.targets, netcode.Target{ID: o.id, Pose: o.pose})
			}
		}
	}
	tr := netcode.Hitscan(&w.cfg.Arena, origin, w.cfg.Rules.ShotRange, w.targets)
	res.Origin = &tankv1.Vec2{X: origin.X, Y: origin.Y}
	res.End = &tankv1.Vec2{X: tr.EndX, Y: tr.EndY}
	res.Verdict = tankv1.ShotVerdict_SHOT_VERDICT_MISS
	if tr.Hit {
		res.Verdict, res.TargetId = tankv1.ShotVerdict_SHOT_VERDICT_HIT, tr.TargetID
		for _, tg := range w.targets {
			if tg.ID == tr.TargetID {
				res.TargetPosition, res.TargetRotation = &tankv1.Vec2{X: tg.Pose.X, Y: tg.Pose.Y}, tg.Pose.Heading
				break
			}
		}
		w.stats.hits.Add(1)
		res.Damage = w.damage(p, tr.TargetID)
	}
	p.peer.send(w.encode(&tankv1.ServerMessage{Kind: &tankv1.ServerMessage_ShotResult{ShotResult: res}}))
	shot := w.encode(&tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Shot{Shot: &tankv1.Shot{
		ShooterId: p.id, ServerTick: w.tick, Origin: res.Origin, End: res.End, TargetId: tr.TargetID,
	}}})
	for _, o := range w.players {
		if o == p || w.withinView(o, res.Origin, res.End) {
			o.peer.send(shot)
		}
	}
}

// checkShot returns the shooter's pose and game time at the shot's move tick, or why the
// shot is refused.
func (w *world) checkShot(p *player, req netcode.ShotRequest) (movePose, tankv1.ShotRefusal) {
	switch {
	case p.destroyed:
		return movePose{}, tankv1.ShotRefusal_SHOT_REFUSAL_DESTROYED
	case req.MoveTick > p.last:
		return movePose{}, tankv1.ShotRefusal_SHOT_REFUSAL_UNPLAYED_TICK
	}
	move, ok := p.moveAt(req.MoveTick)
	if !ok {
		return movePose{}, tankv1.ShotRefusal_SHOT_REFUSAL_STALE_TICK
	}
	if !p.shots.allows(move.granted, w.tick, w.cfg.Rules.Cooldown) {
		return movePose{}, tankv1.ShotRefusal_SHOT_REFUSAL_COOLDOWN
	}
	if len(req.Views) > w.cfg.MaxPlayers {
		return movePose{}, tankv1.ShotRefusal_SHOT_REFUSAL_BAD_VIEW
	}
	window := netcode.Ticks(w.cfg.Rules.RewindWindow)
	for i, v := range req.Views {
		switch {
		case !v.View.Valid() || (i > 0 && v.ID <= req.Views[i-1].ID) || v.ID == p.id:
			return movePose{}, tankv1.ShotRefusal_SHOT_REFUSAL_BAD_VIEW
		case v.View.To >= w.tick: // the newest snapshot sent is the previous tick's
			return movePose{}, tankv1.ShotRefusal_SHOT_REFUSAL_FUTURE_VIEW
		case req.LagCompensation && (w.tick-v.View.From > window || !w.viewRecent(p, v.View)):
			return movePose{}, tankv1.ShotRefusal_SHOT_REFUSAL_VIEW_TOO_OLD
		case req.LagCompensation && !w.viewSent(p, v.ID, v.View):
			return movePose{}, tankv1.ShotRefusal_SHOT_REFUSAL_BAD_VIEW
		}
	}
	return move, tankv1.ShotRefusal_SHOT_REFUSAL_UNSPECIFIED
}
