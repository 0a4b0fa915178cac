package server

import (
	"cmp"
	"slices"

	"tanknet/wire"
)

// Delta snapshots (datagram lane). Every client acknowledges the newest tick of which it got
// every chunk (InputBatch.snapshot_ack_tick). When the server still has what it sent that
// client in that tick, it sends each tank the client saw then against that state (see
// wire.DeltaBuilder), except the client's own tank, which always travels whole. A lost or
// old baseline costs nothing but bytes: the server only ever uses a tick the client says it
// has, and sends whole states when it has none.

// deltaWindow is how many ticks of what it sent each client the server keeps as possible
// baselines: 1.6 s, more than a round trip plus the acknowledgement's own delay on every
// network preset. An acknowledgement older than that gets whole states.
const deltaWindow = 32

// sentLog is one client's record of the snapshots it was sent, by tick modulo deltaWindow.
type sentLog [deltaWindow]sentSnapshot

// sentSnapshot is the tanks one snapshot sent one client, in id order.
type sentSnapshot struct {
	tick  uint32
	tanks []wire.Tank
}

// begin empties and returns the record for tick.
func (l *sentLog) begin(tick uint32) *sentSnapshot {
	s := &l[tick%deltaWindow]
	s.tick, s.tanks = tick, s.tanks[:0]
	return s
}

// at returns the record for tick, or nil when it is gone or was never made.
func (l *sentLog) at(tick uint32) *sentSnapshot {
	if s := &l[tick%deltaWindow]; tick != 0 && s.tick == tick {
		return s
	}
	return nil
}

// find returns the state of tank id in s.
func (s *sentSnapshot) find(id uint32) (wire.Tank, bool) {
	i, ok := slices.BinarySearchFunc(s.tanks, id, func(t wire.Tank, id uint32) int { return cmp.Compare(t.ID, id) })
	if !ok {
		return wire.Tank{}, false
	}
	return s.tanks[i], true
}
