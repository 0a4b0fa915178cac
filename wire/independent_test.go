package wire

import (
	"fmt"

	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
)

// independentReader rebuilds one client's view of the world from its chunks without any of
// this package's decoding: what a client in another language would write from
// docs/PROTOCOL.md (§ delta snapshots), using only the generated message types. The
// round-trip test checks wire's own receiver against it, so a mistake made the same way in
// wire's encoder and decoder still shows.
type independentReader struct {
	seen map[uint32]map[uint32]*tankv1.PlayerState // tick -> id -> state
}

// read decodes one tick's chunks and returns the states, or an error for a chunk it cannot
// rebuild; rebuilt ticks become baselines.
func (r *independentReader) read(chunks [][]byte) (map[uint32]*tankv1.PlayerState, error) {
	states := map[uint32]*tankv1.PlayerState{}
	var tick uint32
	for _, c := range chunks {
		m := new(tankv1.ServerMessage)
		if err := transport.DecodeDatagram(c, m); err != nil {
			return nil, err
		}
		s := m.GetSnapshot()
		tick = s.GetServerTick()
		baseline := s.GetBaselineTick()
		for _, ps := range s.GetPlayers() {
			states[ps.GetPlayerId()] = ps
		}
		base := r.seen[baseline]
		if baseline != 0 && base == nil {
			return nil, fmt.Errorf("tick %d: baseline %d was never received", tick, baseline)
		}
		id := uint32(0)
		for _, gap := range s.GetUnchanged() {
			id += gap
			b, ok := base[id]
			if !ok {
				return nil, fmt.Errorf("tick %d: unchanged tank %d not in baseline %d", tick, id, baseline)
			}
			states[id] = &tankv1.PlayerState{PlayerId: id, Tick: tick, AcknowledgedMoveTick: b.AcknowledgedMoveTick,
				GridX: b.GridX, GridY: b.GridY, GridHeading: b.GridHeading, Health: b.Health, Destroyed: b.Destroyed,
				Kills: b.Kills, Deaths: b.Deaths, SpawnProtected: b.SpawnProtected}
		}
		mv := s.GetMoved()
		if len(mv)%4 != 0 {
			return nil, fmt.Errorf("tick %d: moved has %d numbers", tick, len(mv))
		}
		id = 0
		for i := 0; i < len(mv); i += 4 {
			id += uint32(mv[i])
			b, ok := base[id]
			if !ok {
				return nil, fmt.Errorf("tick %d: moved tank %d not in baseline %d", tick, id, baseline)
			}
			states[id] = &tankv1.PlayerState{PlayerId: id, Tick: tick, AcknowledgedMoveTick: b.AcknowledgedMoveTick,
				GridX: uint32(int64(b.GridX) + int64(mv[i+1])), GridY: uint32(int64(b.GridY) + int64(mv[i+2])),
				GridHeading: b.GridHeading + mv[i+3], Health: b.Health, Destroyed: b.Destroyed,
				Kills: b.Kills, Deaths: b.Deaths, SpawnProtected: b.SpawnProtected}
		}
	}
	r.seen[tick] = states
	return states, nil
}
