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

// The report's median round trip is the middle of the round trips measured (the lower
// middle of an even count), whatever their order, not the newest alone; past keptRTTs it is
// the newest keptRTTs' median; a Pong from the future (a negative round trip) is no sample.
func TestStatistics_RTTMedian(t *testing.T) {
	s := newStatistics(wire.LaneDatagram)
	if got := s.rttMedian(); got != 0 {
		t.Errorf("median before any Pong = %v, want 0", got)
	}
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	for _, rtt := range []int{9, 1, 30, 2, 3} {
		s.pong(ms(100+rtt), ms(100))
	}
	s.pong(ms(100), ms(150)) // negative: ignored
	if got, newest := s.rttMedian(), s.st.RTT; got != ms(3) || newest != ms(3) || s.st.RTTSamples != 5 {
		t.Errorf("median of 9, 1, 30, 2, 3 ms = %v (newest %v, %d samples), want 3ms, 3ms, 5", got, newest, s.st.RTTSamples)
	}
	s.pong(ms(140), ms(100)) // six samples: 1 2 3 9 30 40
	if got := s.rttMedian(); got != ms(3) {
		t.Errorf("median of six = %v, want the lower middle, 3ms", got)
	}
	for range keptRTTs {
		s.pong(ms(107), ms(100))
	}
	if got := s.rttMedian(); got != ms(7) || len(s.rtts) != keptRTTs {
		t.Errorf("after %d more samples of 7 ms: median %v over %d kept, want 7ms over %d", keptRTTs, got, len(s.rtts), keptRTTs)
	}
}
