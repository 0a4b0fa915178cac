package server

import (
	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
)

// TODO(merge): these move to wire.

func killToProto(k *netcode.Kill) *tankv1.Kill {
	return &tankv1.Kill{KillerId: k.KillerID, VictimId: k.VictimID, ServerTick: k.ServerTick}
}

func shotToProto(s *netcode.Shot) *tankv1.Shot {
	return &tankv1.Shot{ShooterId: s.ShooterID, ServerTick: s.ServerTick, Origin: &tankv1.Vec2{X: s.OriginX, Y: s.OriginY},
		End: &tankv1.Vec2{X: s.EndX, Y: s.EndY}, TargetId: s.TargetID}
}

func shotResultToProto(r *netcode.ShotResult) *tankv1.ShotResult {
	m := &tankv1.ShotResult{MoveTick: r.MoveTick, ServerTick: r.ServerTick, Verdict: tankv1.ShotVerdict(r.Verdict),
		Refusal: tankv1.ShotRefusal(r.Refusal)}
	if r.Verdict == netcode.VerdictRefused {
		return m
	}
	m.LagCompensated, m.RewindMs = r.LagCompensated, r.RewindMs
	m.Origin, m.End = &tankv1.Vec2{X: r.OriginX, Y: r.OriginY}, &tankv1.Vec2{X: r.EndX, Y: r.EndY}
	if r.Verdict == netcode.VerdictHit {
		m.TargetId, m.Damage = r.TargetID, r.Damage
		m.TargetPosition, m.TargetRotation = &tankv1.Vec2{X: r.TargetPose.X, Y: r.TargetPose.Y}, r.TargetPose.Heading
	}
	return m
}
