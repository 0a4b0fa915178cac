package wire

import (
	"fmt"
	"math"
	"slices"
	"time"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
)

// RulesToProto returns the wire form of r.
func RulesToProto(r netcode.Rules) *tankv1.Rules {
	ms := func(d time.Duration) uint32 { return uint32(d / time.Millisecond) }
	return &tankv1.Rules{
		ShotRange: r.ShotRange, CooldownMs: ms(r.Cooldown), MaxHealth: r.MaxHealth, Damage: r.Damage,
		RespawnMs: ms(r.RespawnDelay), SpawnProtectionMs: ms(r.SpawnProtection), RewindWindowMs: ms(r.RewindWindow),
		Contact: tankv1.Contact(r.Contact),
	}
}

// RulesFromProto converts and validates wire rules.
func RulesFromProto(m *tankv1.Rules) (netcode.Rules, error) {
	if m == nil {
		return netcode.Rules{}, fmt.Errorf("wire: rules missing")
	}
	ms := func(v uint32) time.Duration { return time.Duration(v) * time.Millisecond }
	r := netcode.Rules{
		ShotRange: m.GetShotRange(), Cooldown: ms(m.GetCooldownMs()), MaxHealth: m.GetMaxHealth(), Damage: m.GetDamage(),
		RespawnDelay: ms(m.GetRespawnMs()), SpawnProtection: ms(m.GetSpawnProtectionMs()), RewindWindow: ms(m.GetRewindWindowMs()),
	}
	if c := m.GetContact(); c >= 0 && c <= tankv1.Contact_CONTACT_PREDICTED { // a mode this client does not know: it sends no push
		r.Contact = netcode.ContactMode(c)
	}
	if err := r.Validate(); err != nil {
		return netcode.Rules{}, fmt.Errorf("wire: bad rules: %w", err)
	}
	return r, nil
}

// FireToProto returns the wire form of a shot request.
func FireToProto(s netcode.ShotRequest) *tankv1.Fire {
	m := &tankv1.Fire{MoveTick: s.MoveTick, LagCompensation: s.LagCompensation, Views: make([]*tankv1.TankView, len(s.Views))}
	for i, v := range s.Views {
		m.Views[i] = &tankv1.TankView{PlayerId: v.ID, FromTick: v.View.From, ToTick: v.View.To, Fraction: v.View.Fraction}
	}
	return m
}

// FireFromProto returns the netcode view of a wire Fire, unvalidated (the server checks
// every view itself), appending the views to dst's storage.
func FireFromProto(m *tankv1.Fire, dst []netcode.TankView) netcode.ShotRequest {
	for _, v := range m.GetViews() {
		dst = append(dst, netcode.TankView{ID: v.GetPlayerId(), View: netcode.View{From: v.GetFromTick(), To: v.GetToTick(), Fraction: v.GetFraction()}})
	}
	return netcode.ShotRequest{MoveTick: m.GetMoveTick(), LagCompensation: m.GetLagCompensation(), Views: dst}
}

// RefusalToProto returns the wire form of r; the two enums are numbered alike.
func RefusalToProto(r netcode.ShotRefusal) tankv1.ShotRefusal { return tankv1.ShotRefusal(r) }

// RefusalFromProto returns the netcode refusal a wire value names. A value this version does
// not know stays unknown (its Label is "unknown"), whatever its size.
func RefusalFromProto(r tankv1.ShotRefusal) netcode.ShotRefusal {
	if r < 0 || r > math.MaxUint8 {
		return math.MaxUint8
	}
	return netcode.ShotRefusal(r)
}

// Refusals returns every refusal the protocol defines, RefusalNone excepted, in increasing
// order: what a server may send, for its metrics to list.
func Refusals() []netcode.ShotRefusal {
	var out []netcode.ShotRefusal
	for v := range tankv1.ShotRefusal_name {
		if r := RefusalFromProto(tankv1.ShotRefusal(v)); r != netcode.RefusalNone {
			out = append(out, r)
		}
	}
	slices.Sort(out)
	return out
}
