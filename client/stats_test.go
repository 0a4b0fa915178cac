package client

import (
	"testing"
	"time"

	"tanknet/wire"
)

func TestStatistics_Counts(t *testing.T) {
	s := newStatistics(wire.LaneDatagram)
	s.chunk(5, 0)
	s.chunk(5, 1)
	s.chunk(3, 0) // late: counted, but the newest tick stays 5
	for _, id := range []uint32{1, 2, 1, 2, 7} {
		s.player(id)
	}
	s.ack(7)
	s.ack(4) // an older state's
	s.pong(100*time.Millisecond, 40*time.Millisecond)
	s.pong(100*time.Millisecond, 140*time.Millisecond) // from the future: ignored
	want := Stats{Lane: wire.LaneDatagram, Chunks: 3, Snapshots: 2, ServerTick: 5, PlayersSeen: 3, LastAck: 7,
		RTT: 60 * time.Millisecond, RTTSamples: 1}
	if s.st != want {
		t.Errorf("stats = %+v, want %+v", s.st, want)
	}
	if s.serverTick() != 5 || s.lastAck() != 7 {
		t.Errorf("serverTick %d, lastAck %d; want 5 and 7", s.serverTick(), s.lastAck())
	}
}
