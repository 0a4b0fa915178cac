package recording

import (
	"errors"
	"fmt"
	"io"

	"google.golang.org/protobuf/proto"

	tankv1 "tanknet/proto/tank/v1"
	"tanknet/wire"
)

// Diff reads two recordings side by side and returns the first difference, nil when they
// hold the same match: the same header (but the build that wrote it), then record by
// record the same ticks, events, inputs, shots, state hashes and keyframes. Want is a's
// value, Got b's.
func Diff(a, b io.Reader) (*Divergence, error) {
	ra, err := NewReader(a)
	if err != nil {
		return nil, fmt.Errorf("first file: %w", err)
	}
	rb, err := NewReader(b)
	if err != nil {
		return nil, fmt.Errorf("second file: %w", err)
	}
	ha, hb := proto.Clone(ra.Header).(*tankv1.RecordingHeader), proto.Clone(rb.Header).(*tankv1.RecordingHeader)
	ha.ModuleVersion, hb.ModuleVersion = "", ""
	if !proto.Equal(ha, hb) {
		return &Divergence{Field: "header", Want: ha.String(), Got: hb.String()}, nil
	}
	var tick uint32
	for {
		ma, errA := ra.Next()
		mb, errB := rb.Next()
		endA, endB := errors.Is(errA, io.EOF), errors.Is(errB, io.EOF)
		switch {
		case errA != nil && !endA:
			return nil, fmt.Errorf("first file: %w", errA)
		case errB != nil && !endB:
			return nil, fmt.Errorf("second file: %w", errB)
		case endA && endB:
			return nil, nil
		case endA || endB:
			return &Divergence{Tick: tick, Field: "end of recording", Want: ends(endA), Got: ends(endB)}, nil
		}
		if d := diffRecord(ma, mb); d != nil {
			return d, nil
		}
		if t := ma.GetTick(); t != nil {
			tick = t.GetTick()
		}
	}
}

func ends(end bool) string {
	if end {
		return "ended"
	}
	return "goes on"
}

// diffRecord returns the first difference between two records, nil if none.
func diffRecord(a, b *tankv1.Record) *Divergence {
	ta, tb := a.GetTick(), b.GetTick()
	ka, kb := a.GetKeyframe(), b.GetKeyframe()
	switch {
	case ta != nil && tb != nil:
		return diffTick(ta, tb)
	case ka != nil && kb != nil:
		return diffKeyframe(ka, kb)
	}
	return &Divergence{Tick: ta.GetTick() + ka.GetTick(), Field: "record kind", Want: kind(a), Got: kind(b)}
}

func kind(m *tankv1.Record) string { return fmt.Sprintf("%T", m.GetKind()) }

func diffTick(a, b *tankv1.RecordedTick) *Divergence {
	t := a.GetTick()
	if a.GetTick() != b.GetTick() {
		return &Divergence{Tick: t, Field: "tick", Want: fmt.Sprint(a.GetTick()), Got: fmt.Sprint(b.GetTick())}
	}
	if len(a.GetEvents()) != len(b.GetEvents()) {
		return &Divergence{Tick: t, Field: "events", Want: fmt.Sprint(len(a.GetEvents())), Got: fmt.Sprint(len(b.GetEvents()))}
	}
	for i, ea := range a.GetEvents() {
		if eb := b.GetEvents()[i]; !proto.Equal(ea, eb) {
			return &Divergence{Tick: t, Player: ea.GetPlayerId(), Field: fmt.Sprintf("event %d", i), Want: ea.String(), Got: eb.String()}
		}
	}
	if len(a.GetMoves()) != len(b.GetMoves()) {
		return &Divergence{Tick: t, Field: "inputs applied", Want: fmt.Sprint(len(a.GetMoves())), Got: fmt.Sprint(len(b.GetMoves()))}
	}
	for i, ma := range a.GetMoves() {
		mb := b.GetMoves()[i]
		for _, f := range []struct {
			name string
			a, b any
		}{{"input player", ma.GetPlayerId(), mb.GetPlayerId()}, {"input move_tick", ma.GetMoveTick(), mb.GetMoveTick()},
			{"input turn", ma.GetTurn(), mb.GetTurn()}, {"input throttle", ma.GetThrottle(), mb.GetThrottle()},
			{"input duration_ns", ma.GetDurationNs(), mb.GetDurationNs()},
			{"input push_x", ma.GetPushX(), mb.GetPushX()}, {"input push_y", ma.GetPushY(), mb.GetPushY()}} {
			if f.a != f.b {
				return &Divergence{Tick: t, Player: ma.GetPlayerId(), Field: f.name, Want: fmt.Sprint(f.a), Got: fmt.Sprint(f.b)}
			}
		}
	}
	if len(a.GetShots()) != len(b.GetShots()) {
		return &Divergence{Tick: t, Field: "shots judged", Want: fmt.Sprint(len(a.GetShots())), Got: fmt.Sprint(len(b.GetShots()))}
	}
	for i, sa := range a.GetShots() {
		if sb := b.GetShots()[i]; !proto.Equal(sa, sb) {
			return &Divergence{Tick: t, Player: sa.GetShooterId(), Field: fmt.Sprintf("shot %d", i), Want: shotText(sa), Got: shotText(sb)}
		}
	}
	if a.GetStateHash() != b.GetStateHash() {
		return &Divergence{Tick: t, Field: "state hash", Want: fmt.Sprintf("%#x", a.GetStateHash()), Got: fmt.Sprintf("%#x", b.GetStateHash())}
	}
	return nil
}

func diffKeyframe(a, b *tankv1.Keyframe) *Divergence {
	if a.GetTick() != b.GetTick() {
		return &Divergence{Tick: a.GetTick(), Field: "keyframe tick", Want: fmt.Sprint(a.GetTick()), Got: fmt.Sprint(b.GetTick())}
	}
	if d := compare(a.GetTick(), tanksOf(a), tanksOf(b), false); d != nil {
		return d
	}
	for i, ta := range a.GetTanks() {
		tb := b.GetTanks()[i]
		for _, f := range []struct {
			name string
			a, b any
		}{{"health", ta.GetHealth(), tb.GetHealth()}, {"destroyed", ta.GetDestroyed(), tb.GetDestroyed()},
			{"respawn_tick", ta.GetRespawnTick(), tb.GetRespawnTick()}} {
			if f.a != f.b {
				return &Divergence{Tick: a.GetTick(), Player: ta.GetPlayerId(), Field: f.name, Want: fmt.Sprint(f.a), Got: fmt.Sprint(f.b)}
			}
		}
	}
	return nil
}

// shotText is a recorded shot as a person compares two: who fired at which move tick, with
// how many views, and what it was told.
func shotText(s *tankv1.RecordedShot) string {
	f, r := s.GetFire(), s.GetResult()
	return fmt.Sprintf("player %d move tick %d lag compensation %v views %d sighted %v: %s target %d damage %d end (%s, %s)",
		s.GetShooterId(), f.GetMoveTick(), f.GetLagCompensation(), len(f.GetViews()), s.GetSighted(),
		verdictName(wire.ShotResultFromProto(r)), r.GetTargetId(), r.GetDamage(), fmtFloat(r.GetEnd().GetX()), fmtFloat(r.GetEnd().GetY()))
}
