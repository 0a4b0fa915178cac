package wire

import (
	"math"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
)

func TestRules_RoundTrip(t *testing.T) {
	want := netcode.DefaultRules()
	got, err := RulesFromProto(RulesToProto(want))
	if err != nil || got != want {
		t.Errorf("RulesFromProto(RulesToProto(%+v)) = %+v, %v", want, got, err)
	}
	if _, err := RulesFromProto(nil); err == nil {
		t.Error("RulesFromProto(nil) accepted a missing rules message")
	}
	bad := RulesToProto(want)
	bad.CooldownMs = 70 // not a whole tick
	if _, err := RulesFromProto(bad); err == nil {
		t.Errorf("RulesFromProto(%v) accepted a cooldown of 70 ms", bad)
	}
}

func TestFire_RoundTripKeepsEveryBit(t *testing.T) {
	want := netcode.ShotRequest{MoveTick: 42, LagCompensation: true, Views: []netcode.TankView{
		{ID: 3, View: netcode.View{From: 10, To: 11, Fraction: math.Nextafter(0.3, 1)}},
		{ID: 9, View: netcode.View{From: 12, To: 12}},
	}}
	b, err := proto.Marshal(FireToProto(want))
	if err != nil {
		t.Fatal(err)
	}
	var m tankv1.Fire
	if err := proto.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	got := FireFromProto(&m, nil)
	if got.MoveTick != want.MoveTick || got.LagCompensation != want.LagCompensation || len(got.Views) != 2 ||
		got.Views[0] != want.Views[0] || got.Views[1] != want.Views[1] {
		t.Errorf("FireFromProto(FireToProto(%+v)) = %+v", want, got)
	}
}

// FuzzRulesFromProto decodes arbitrary bytes as the wire Rules a client reads from Welcome.
// It must never panic, and rules it accepts must be usable: whole ticks, a positive finite
// range, a cooldown of at least one tick and damage that eventually destroys a tank.
func FuzzRulesFromProto(f *testing.F) {
	add := func(r *tankv1.Rules) {
		b, err := proto.Marshal(r)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	add(RulesToProto(netcode.DefaultRules()))                                          // valid
	add(&tankv1.Rules{})                                                               // all zero: invalid
	add(&tankv1.Rules{ShotRange: math.NaN(), CooldownMs: 50, MaxHealth: 1, Damage: 1}) // NaN range: invalid
	add(&tankv1.Rules{ShotRange: 1, CooldownMs: 51, MaxHealth: 1, Damage: 1})          // cooldown off the tick: invalid
	add(&tankv1.Rules{ShotRange: 1e308, CooldownMs: 4294967250, MaxHealth: math.MaxUint32, Damage: 1,
		RespawnMs: 4294967250, RewindWindowMs: 60000}) // extreme but valid
	f.Fuzz(func(t *testing.T, b []byte) {
		var m tankv1.Rules
		if proto.Unmarshal(b, &m) != nil {
			return
		}
		r, err := RulesFromProto(&m)
		if err != nil {
			return
		}
		if r.Cooldown%netcode.StepInterval != 0 || r.Cooldown < netcode.StepInterval || netcode.Ticks(r.Cooldown) == 0 {
			t.Fatalf("accepted cooldown %v", r.Cooldown)
		}
		if !(r.ShotRange > 0) || math.IsInf(r.ShotRange, 0) || r.Damage == 0 || r.MaxHealth == 0 || r.RewindWindow > time.Minute {
			t.Fatalf("accepted unusable rules %+v", r)
		}
	})
}

// TestRefusal_LabelsAndRoundTrip: every refusal on the wire converts to netcode and back
// unchanged, and its netcode Label is the wire name lower-cased without its prefix, so
// reports and metrics read the same words as PROTOCOL.md.
func TestRefusal_LabelsAndRoundTrip(t *testing.T) {
	for v, name := range tankv1.ShotRefusal_name {
		w := tankv1.ShotRefusal(v)
		r := RefusalFromProto(w)
		if back := RefusalToProto(r); back != w {
			t.Errorf("RefusalToProto(RefusalFromProto(%v)) = %v", w, back)
		}
		if want := strings.ToLower(strings.TrimPrefix(name, "SHOT_REFUSAL_")); r.Label() != want {
			t.Errorf("RefusalFromProto(%v).Label() = %q, want %q", w, r.Label(), want)
		}
	}
	for _, v := range []tankv1.ShotRefusal{-1, 99, 1 << 20} {
		if got := RefusalFromProto(v).Label(); got != "unknown" {
			t.Errorf("RefusalFromProto(%d).Label() = %q, want unknown", v, got)
		}
	}
}
