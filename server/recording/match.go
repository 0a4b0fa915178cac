package recording

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/wire"
	"tanknet/world"
)

// Match is a server recording held in memory for a viewer: At rebuilds the world at any
// recorded tick from the nearest keyframe at or before it (or the empty world, for a
// recording that starts at tick 1), replaying the ticks between through package world as
// Verify does. It shows the combat the recording kept rather than judging the shots again:
// a keyframe holds no history to rewind a shot's views into. A viewer that moves forward a
// tick at a time continues from where it was.
type Match struct {
	Header *tankv1.RecordingHeader
	cfg    world.Config           // the world its ticks replay in (replayConfig)
	first  uint32                 // the first recorded tick
	ticks  []*tankv1.RecordedTick // ticks[i] is tick first+i
	keys   []*tankv1.Keyframe     // in tick order

	// The world at the end of tick at, for a viewer stepping forward; nil: start afresh.
	at    uint32
	world *world.World
}

// Load reads a whole recording from r, checking its order as Verify does. A recording with
// no tick, or one that does not start at tick 1 and has no keyframe, is refused: no moment
// of it could be rebuilt.
func Load(r io.Reader) (*Match, error) {
	rd, err := NewReader(r)
	if err != nil {
		return nil, err
	}
	m := &Match{Header: rd.Header, first: rd.Header.GetFirstTick()}
	if m.cfg, err = replayConfig(rd.Header); err != nil {
		return nil, err
	}
	if _, err = wire.RulesFromProto(rd.Header.GetRules()); err != nil { // a viewer shows health
		return nil, fmt.Errorf("recording: header rules: %w", err)
	}
	last := m.first - 1
	for {
		at := rd.Offset()
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		switch k := rec.GetKind().(type) {
		case *tankv1.Record_Header:
			return nil, fmt.Errorf("recording: at byte %d: a second header", at)
		case *tankv1.Record_Tick:
			if k.Tick.GetTick() != last+1 {
				return nil, fmt.Errorf("recording: at byte %d: tick %d follows tick %d", at, k.Tick.GetTick(), last)
			}
			last++
			m.ticks = append(m.ticks, k.Tick)
		case *tankv1.Record_Keyframe:
			if k.Keyframe.GetTick() != last || len(m.ticks) == 0 {
				return nil, fmt.Errorf("recording: at byte %d: keyframe of tick %d after tick %d", at, k.Keyframe.GetTick(), last)
			}
			if len(k.Keyframe.GetTanks()) > maxTanks {
				return nil, fmt.Errorf("recording: at byte %d: keyframe of %d tanks, at most %d", at, len(k.Keyframe.GetTanks()), maxTanks)
			}
			m.keys = append(m.keys, k.Keyframe)
		}
	}
	switch {
	case len(m.ticks) == 0:
		return nil, errors.New("recording: no tick recorded")
	case m.first != 1 && len(m.keys) == 0:
		return nil, fmt.Errorf("recording: starts at tick %d and has no keyframe to start from", m.first)
	}
	return m, nil
}

// First and Last are the first and last recorded ticks.
func (m *Match) First() uint32 { return m.first }
func (m *Match) Last() uint32  { return m.first + uint32(len(m.ticks)) - 1 }

// Arena is the arena the recording's header names.
func (m *Match) Arena() netcode.Arena { return m.cfg.Arena }

// Rules are the combat rules the recording's header names.
func (m *Match) Rules() netcode.Rules { return m.cfg.Rules }

// At appends to dst the world at the end of tick (clamped to what can be rebuilt), in id
// order, and returns it with the tick it shows. A tank's combat state is what the recording
// says the tick's shots left (and, at a keyframe, what the keyframe says: a file written
// before ticks recorded their combat has only the keyframes).
func (m *Match) At(tick uint32, dst []world.TankState) ([]world.TankState, uint32, error) {
	tick = min(max(tick, m.start()), m.Last())
	if m.world == nil || tick < m.at || m.keyBefore(tick) > m.at {
		m.reset(tick)
	}
	for m.at < tick {
		r := replayed(m.ticks[m.at+1-m.first])
		r.Combat = m.keyCombat(r.Tick, r.Combat)
		if _, err := m.world.Replay(r); err != nil {
			m.world = nil // start afresh next time
			return dst, m.at, fmt.Errorf("recording: %w", err)
		}
		m.at++
	}
	return m.world.State(dst), tick, nil
}

// start is the first tick At can show: the first keyframe's, or the first tick.
func (m *Match) start() uint32 {
	if m.first == 1 {
		return 1
	}
	return m.keys[0].GetTick()
}

// keyBefore returns the tick of the last keyframe at or before tick, 0 when none.
func (m *Match) keyBefore(tick uint32) uint32 {
	i, found := slices.BinarySearchFunc(m.keys, tick, func(k *tankv1.Keyframe, t uint32) int { return int(int64(k.GetTick()) - int64(t)) })
	if found {
		return tick
	}
	if i == 0 {
		return 0
	}
	return m.keys[i-1].GetTick()
}

// reset starts the world afresh at the last keyframe at or before tick, or before tick 1.
func (m *Match) reset(tick uint32) {
	m.world = world.New(m.cfg)
	m.at = 0
	k := m.keyBefore(tick)
	if k == 0 {
		return // a recording from tick 1: the empty world before it
	}
	kf := m.keys[slices.IndexFunc(m.keys, func(kf *tankv1.Keyframe) bool { return kf.GetTick() == k })]
	m.world.Restore(k, tanksOf(kf)) // Load refused a keyframe of more tanks than maxTanks
	m.at = k
}

// keyCombat appends to dst every tank's combat state in the keyframe of tick, if there is
// one, and returns it.
func (m *Match) keyCombat(tick uint32, dst []world.CombatChange) []world.CombatChange {
	every := m.Header.GetKeyframeEvery()
	if every == 0 || tick%every != 0 {
		return dst
	}
	i, ok := slices.BinarySearchFunc(m.keys, tick, func(k *tankv1.Keyframe, t uint32) int { return int(int64(k.GetTick()) - int64(t)) })
	if !ok {
		return dst
	}
	for _, kt := range m.keys[i].GetTanks() {
		dst = append(dst, world.CombatChange{Player: kt.GetPlayerId(),
			TankCombat: world.TankCombat{Health: kt.GetHealth(), Destroyed: kt.GetDestroyed(), RespawnTick: kt.GetRespawnTick()}})
	}
	return dst
}
