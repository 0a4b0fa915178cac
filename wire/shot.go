package wire

import (
	"math"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
)

// What the server says about shots: the ShotResult a shooter gets, the Shot tracer nearby
// clients get and the Kill everyone gets, as netcode's plain values both ways. What a
// result's verdict does not need (a target without a hit, a shell's path for a refusal) is
// left off the wire and reads back as zero.

// ShotResultToProto returns the wire form of r: for a refusal the ticks, the verdict and the
// refusal only; for a judged shot also whether it was lag compensated, how far back and the
// shell's path; for a hit also the target, where the server saw it and the damage.
func ShotResultToProto(r netcode.ShotResult) *tankv1.ShotResult {
	m := &tankv1.ShotResult{
		MoveTick: r.MoveTick, ServerTick: r.ServerTick,
		Verdict: VerdictToProto(r.Verdict), Refusal: RefusalToProto(r.Refusal),
	}
	if r.Verdict == netcode.VerdictRefused {
		return m
	}
	m.LagCompensated, m.RewindMs = r.LagCompensated, r.RewindMs
	m.Origin, m.End = vec(r.OriginX, r.OriginY), vec(r.EndX, r.EndY)
	if r.Verdict == netcode.VerdictHit {
		m.TargetId, m.Damage = r.TargetID, r.Damage
		m.TargetPosition, m.TargetRotation = vec(r.TargetPose.X, r.TargetPose.Y), r.TargetPose.Heading
	}
	return m
}

// ShotResultFromProto returns what a wire ShotResult says. Missing fields read as zero; a
// verdict or refusal this version does not know keeps its number (see RefusalFromProto).
func ShotResultFromProto(m *tankv1.ShotResult) netcode.ShotResult {
	return netcode.ShotResult{
		MoveTick: m.GetMoveTick(), ServerTick: m.GetServerTick(),
		Verdict: VerdictFromProto(m.GetVerdict()), Refusal: RefusalFromProto(m.GetRefusal()),
		TargetID: m.GetTargetId(),
		TargetPose: netcode.Pose{X: m.GetTargetPosition().GetX(), Y: m.GetTargetPosition().GetY(),
			Heading: m.GetTargetRotation()},
		OriginX: m.GetOrigin().GetX(), OriginY: m.GetOrigin().GetY(),
		EndX: m.GetEnd().GetX(), EndY: m.GetEnd().GetY(),
		LagCompensated: m.GetLagCompensated(), RewindMs: m.GetRewindMs(), Damage: m.GetDamage(),
	}
}

// ShotToProto returns the wire form of tracer s.
func ShotToProto(s netcode.Shot) *tankv1.Shot {
	return &tankv1.Shot{ShooterId: s.ShooterID, ServerTick: s.ServerTick,
		Origin: vec(s.OriginX, s.OriginY), End: vec(s.EndX, s.EndY), TargetId: s.TargetID}
}

// ShotFromProto returns what a wire Shot says. Missing fields read as zero.
func ShotFromProto(m *tankv1.Shot) netcode.Shot {
	return netcode.Shot{ShooterID: m.GetShooterId(), ServerTick: m.GetServerTick(),
		OriginX: m.GetOrigin().GetX(), OriginY: m.GetOrigin().GetY(),
		EndX: m.GetEnd().GetX(), EndY: m.GetEnd().GetY(), TargetID: m.GetTargetId()}
}

// KillToProto returns the wire form of k.
func KillToProto(k netcode.Kill) *tankv1.Kill {
	return &tankv1.Kill{KillerId: k.KillerID, VictimId: k.VictimID, ServerTick: k.ServerTick}
}

// KillFromProto returns what a wire Kill says.
func KillFromProto(m *tankv1.Kill) netcode.Kill {
	return netcode.Kill{KillerID: m.GetKillerId(), VictimID: m.GetVictimId(), ServerTick: m.GetServerTick()}
}

// VerdictToProto returns the wire form of v; the two enums are numbered alike.
func VerdictToProto(v netcode.ShotVerdict) tankv1.ShotVerdict { return tankv1.ShotVerdict(v) }

// VerdictFromProto returns the netcode verdict a wire value names. A value this version does
// not know stays unknown (none of netcode's constants), whatever its size.
func VerdictFromProto(v tankv1.ShotVerdict) netcode.ShotVerdict {
	if v < 0 || v > math.MaxUint8 {
		return math.MaxUint8
	}
	return netcode.ShotVerdict(v)
}

// vec returns the wire point (x, y).
func vec(x, y float64) *tankv1.Vec2 { return &tankv1.Vec2{X: x, Y: y} }
