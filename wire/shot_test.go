package wire

import (
	"math"
	"testing"

	"google.golang.org/protobuf/proto"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
)

// TestShotResult_RoundTrip: a hit, a miss and a refusal travel and come back equal, every
// float bit for bit, and each is the message the server always sent: no target pose
// without a hit, no shell path for a refusal.
func TestShotResult_RoundTrip(t *testing.T) {
	for name, tc := range map[string]struct {
		r    netcode.ShotResult
		want *tankv1.ShotResult
	}{
		"hit": {
			netcode.ShotResult{MoveTick: 40, ServerTick: 44, Verdict: netcode.VerdictHit, TargetID: 3,
				TargetPose: netcode.Pose{X: 10.25, Y: -0.0, Heading: -math.Pi}, OriginX: 0.1 + 0.2, OriginY: 7,
				EndX: 10, EndY: math.SmallestNonzeroFloat64, LagCompensated: true, RewindMs: 112.5, Damage: 25},
			&tankv1.ShotResult{MoveTick: 40, ServerTick: 44, Verdict: tankv1.ShotVerdict_SHOT_VERDICT_HIT, TargetId: 3,
				TargetPosition: &tankv1.Vec2{X: 10.25, Y: -0.0}, TargetRotation: -math.Pi,
				Origin: &tankv1.Vec2{X: 0.1 + 0.2, Y: 7}, End: &tankv1.Vec2{X: 10, Y: math.SmallestNonzeroFloat64},
				LagCompensated: true, RewindMs: 112.5, Damage: 25},
		},
		"miss": {
			netcode.ShotResult{MoveTick: 41, ServerTick: 45, Verdict: netcode.VerdictMiss, OriginX: 1, OriginY: 2, EndX: 3, EndY: 4},
			&tankv1.ShotResult{MoveTick: 41, ServerTick: 45, Verdict: tankv1.ShotVerdict_SHOT_VERDICT_MISS,
				Origin: &tankv1.Vec2{X: 1, Y: 2}, End: &tankv1.Vec2{X: 3, Y: 4}},
		},
		"refused": {
			netcode.ShotResult{MoveTick: 42, ServerTick: 46, Verdict: netcode.VerdictRefused, Refusal: netcode.RefusalCooldown},
			&tankv1.ShotResult{MoveTick: 42, ServerTick: 46, Verdict: tankv1.ShotVerdict_SHOT_VERDICT_REFUSED,
				Refusal: tankv1.ShotRefusal_SHOT_REFUSAL_COOLDOWN},
		},
	} {
		t.Run(name, func(t *testing.T) {
			m := ShotResultToProto(tc.r)
			if !proto.Equal(m, tc.want) {
				t.Errorf("ShotResultToProto(%+v) = %v, want %v", tc.r, m, tc.want)
			}
			got := ShotResultFromProto(throughWire(t, m))
			if !sameShotResult(got, tc.r) {
				t.Errorf("ShotResultFromProto(ShotResultToProto(%+v)) = %+v", tc.r, got)
			}
		})
	}
	if got := ShotResultFromProto(nil); got != (netcode.ShotResult{}) {
		t.Errorf("ShotResultFromProto(nil) = %+v, want zero", got)
	}
}

func sameShotResult(a, b netcode.ShotResult) bool {
	return a.MoveTick == b.MoveTick && a.ServerTick == b.ServerTick && a.Verdict == b.Verdict &&
		a.Refusal == b.Refusal && a.TargetID == b.TargetID && a.LagCompensated == b.LagCompensated &&
		a.Damage == b.Damage && sameBits(a.RewindMs, b.RewindMs) &&
		sameBits(a.TargetPose.X, b.TargetPose.X) && sameBits(a.TargetPose.Y, b.TargetPose.Y) &&
		sameBits(a.TargetPose.Heading, b.TargetPose.Heading) && sameBits(a.OriginX, b.OriginX) &&
		sameBits(a.OriginY, b.OriginY) && sameBits(a.EndX, b.EndX) && sameBits(a.EndY, b.EndY)
}

// TestShotAndKill_RoundTrip: a tracer and a kill come back as they went.
func TestShotAndKill_RoundTrip(t *testing.T) {
	for _, s := range []netcode.Shot{
		{ShooterID: 2, ServerTick: 90, OriginX: 1.5, OriginY: -2, EndX: 30, EndY: 0.1 + 0.2, TargetID: 5},
		{ShooterID: 7, ServerTick: 1 << 30, OriginX: 4, OriginY: 4, EndX: 4, EndY: 44}, // a miss
	} {
		if got := ShotFromProto(throughWire(t, ShotToProto(s))); got != s {
			t.Errorf("ShotFromProto(ShotToProto(%+v)) = %+v", s, got)
		}
	}
	k := netcode.Kill{KillerID: 1, VictimID: 9, ServerTick: 12345}
	if got := KillFromProto(throughWire(t, KillToProto(k))); got != k {
		t.Errorf("KillFromProto(KillToProto(%+v)) = %+v", k, got)
	}
}

// TestVerdict_Names: every wire verdict converts both ways, netcode's constants are the
// wire's numbers, and a number this version does not know stays none of them.
func TestVerdict_Names(t *testing.T) {
	want := map[tankv1.ShotVerdict]netcode.ShotVerdict{
		tankv1.ShotVerdict_SHOT_VERDICT_UNSPECIFIED: netcode.VerdictNone,
		tankv1.ShotVerdict_SHOT_VERDICT_HIT:         netcode.VerdictHit,
		tankv1.ShotVerdict_SHOT_VERDICT_MISS:        netcode.VerdictMiss,
		tankv1.ShotVerdict_SHOT_VERDICT_REFUSED:     netcode.VerdictRefused,
	}
	for v := range tankv1.ShotVerdict_name {
		w := tankv1.ShotVerdict(v)
		got := VerdictFromProto(w)
		if n, ok := want[w]; !ok || got != n {
			t.Errorf("VerdictFromProto(%v) = %d, want %d (known: %v)", w, got, n, ok)
		}
		if back := VerdictToProto(got); back != w {
			t.Errorf("VerdictToProto(VerdictFromProto(%v)) = %v", w, back)
		}
	}
	for _, v := range []tankv1.ShotVerdict{-1, 4, 1 << 20} {
		switch VerdictFromProto(v) {
		case netcode.VerdictNone, netcode.VerdictHit, netcode.VerdictMiss, netcode.VerdictRefused:
			t.Errorf("VerdictFromProto(%d) = a known verdict", v)
		}
	}
}

// TestShotResultToProto_OnlyWhatTheVerdictNeeds: a refusal carries no path, rewind or target
// even when the value has them, and a miss no target or damage.
func TestShotResultToProto_OnlyWhatTheVerdictNeeds(t *testing.T) {
	extra := netcode.ShotResult{MoveTick: 5, ServerTick: 9, TargetID: 2, TargetPose: netcode.Pose{X: 1}, OriginX: 1, EndX: 2,
		LagCompensated: true, RewindMs: 50, Damage: 25}
	refused, miss := extra, extra
	refused.Verdict, refused.Refusal = netcode.VerdictRefused, netcode.RefusalStaleTick
	miss.Verdict = netcode.VerdictMiss
	want := map[string]*tankv1.ShotResult{
		"refused": {MoveTick: 5, ServerTick: 9, Verdict: tankv1.ShotVerdict_SHOT_VERDICT_REFUSED, Refusal: tankv1.ShotRefusal_SHOT_REFUSAL_STALE_TICK},
		"miss": {MoveTick: 5, ServerTick: 9, Verdict: tankv1.ShotVerdict_SHOT_VERDICT_MISS, LagCompensated: true, RewindMs: 50,
			Origin: &tankv1.Vec2{X: 1}, End: &tankv1.Vec2{X: 2}},
	}
	for name, r := range map[string]netcode.ShotResult{"refused": refused, "miss": miss} {
		if got := ShotResultToProto(r); !proto.Equal(got, want[name]) {
			t.Errorf("%s: ShotResultToProto = %v, want %v", name, got, want[name])
		}
	}
}
