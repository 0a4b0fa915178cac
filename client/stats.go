package client

import (
	"slices"
	"time"

	"tanknet/wire"
)

// Stats counts what a Game has sent and received.
type Stats struct {
	InputsSent   int
	Snapshots    int
	LastAck      uint32        // acknowledged_move_tick in our newest state
	ServerTick   uint32        // newest snapshot's tick
	PlayersSeen  int           // distinct players ever seen in a snapshot, us included
	RulesChanges int           // RulesChanged messages received: the room's rules changed during the match
	RTT          time.Duration // the newest round trip a Pong measured
	RTTSamples   int

	Lane          wire.Lane // where the server sends snapshots (Welcome)
	Chunks        int       // snapshot chunks used (datagram lane; a whole snapshot counts one)
	SnapshotsLost int       // server ticks of which no chunk came (the last 0.5 s excepted)
	UnknownStates int       // states of players the roster has not announced, skipped
	HOLStalls     int       // head-of-line stalls detected (reliable lane only)
	// Interest management: remote tanks forgotten because the server said they left our
	// view (or said nothing of them for forgetAfter), and tanks that came back after a gap
	// of at least reenterGap ticks, drawn at once where they are.
	LeftView, Reentered int
	// DeltaUnusable counts snapshot chunks whose delta tanks could not all be rebuilt: their
	// baseline was lost or too old (the server only uses acknowledged ones, so this stays 0
	// unless the server misbehaves or a chunk is corrupt).
	DeltaUnusable int
}

// statistics keeps a Game's Stats as things happen: its methods are the counts with a rule
// (the newest tick, distinct players, a round trip that makes sense), and the Game adds the
// plain counts to st itself. The figures of arrivals (lost snapshots, stalls) are read from
// the lanes when asked (Game.Stats).
type statistics struct {
	st   Stats
	seen map[uint32]bool // every player seen in a snapshot
	rtts []time.Duration // the newest keptRTTs round trips, oldest overwritten first
}

// keptRTTs bounds the round trips a Game keeps for its report's median: 34 minutes of two pings a
// second, 32 KiB.
const keptRTTs = 4096

func newStatistics(lane wire.Lane) statistics {
	return statistics{st: Stats{Lane: lane}, seen: map[uint32]bool{}}
}

// chunk counts a snapshot chunk of tick used (index 0 begins a snapshot).
func (s *statistics) chunk(tick, index uint32) {
	s.st.Chunks++
	if index == 0 {
		s.st.Snapshots++
	}
	s.st.ServerTick = max(s.st.ServerTick, tick)
}

// player counts player id seen in a snapshot.
func (s *statistics) player(id uint32) {
	if !s.seen[id] {
		s.seen[id] = true
		s.st.PlayersSeen = len(s.seen)
	}
}

// ack takes the move tick acknowledged in one of our own states.
func (s *statistics) ack(tick uint32) { s.st.LastAck = max(s.st.LastAck, tick) }

// pong takes the answer to a Ping sent at sent that came back at at (netcode's timeline).
func (s *statistics) pong(at, sent time.Duration) {
	if rtt := at - sent; rtt >= 0 {
		s.st.RTT = rtt
		if len(s.rtts) < keptRTTs {
			s.rtts = append(s.rtts, rtt)
		} else {
			s.rtts[s.st.RTTSamples%keptRTTs] = rtt
		}
		s.st.RTTSamples++
	}
}

// rttMedian returns the median of the kept round trips (the lower middle one of an even
// count), 0 before any.
func (s *statistics) rttMedian() time.Duration {
	if len(s.rtts) == 0 {
		return 0
	}
	sorted := slices.Clone(s.rtts)
	slices.Sort(sorted)
	return sorted[(len(sorted)-1)/2]
}

// serverTick returns the newest snapshot's tick; lastAck the newest move tick acknowledged.
func (s *statistics) serverTick() uint32 { return s.st.ServerTick }
func (s *statistics) lastAck() uint32    { return s.st.LastAck }
