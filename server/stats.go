package server

import (
	"sync/atomic"

	"tanknet/transport"
)

// Stats are the server's running totals, safe to read while it runs.
type Stats struct {
	Ticks          uint64 // simulation ticks run
	Players        int    // players in the game right now, in every room
	Joins          uint64 // handshakes accepted
	Rejects        uint64 // handshakes refused (version, full, bad hello, shutting down)
	Drops          uint64 // players removed for a protocol error, timeout or slow link
	Leaves         uint64 // players that left on their own (goodbye or closed)
	InputsApplied  uint64 // MoveInputs simulated
	InputsStale    uint64 // MoveInputs at or below an already queued tick, dropped
	InputsClamped  uint64 // MoveInputs with turn or throttle outside [-1, 1]
	InputsDeferred uint64 // times a player's next input waited a tick for its time budget
	Contacts       uint64 // tank pairs pushed apart
	BadFrames      uint64 // undecodable or oversized frames and unknown message kinds
	Evicted        uint64 // silent handshakes closed to make room for newer connections
	Handshaking    int    // connections in their handshake right now
	PingsIgnored   uint64 // Pings beyond the allowed rate, not answered

	// RejectsByCode splits Rejects by reject code: "version_mismatch", "server_full",
	// "bad_hello", "shutting_down", "busy" (the join queue was full), "no_room" (see rooms.go).
	RejectsByCode map[string]uint64
	// DropsByReason splits Drops by the code of their reason (the Disconnect's): "timeout",
	// "protocol_error", "cannot_keep_up", "not_acknowledging", "other" (see dropKinds).
	// Every labelled count and its labels are declared once in Metrics, which exports each
	// label at zero.
	DropsByReason map[string]uint64
	// InputsRefused counts the MoveInputs that got their client dropped, by the rule they
	// broke: "not_finite", "duration", "too_far_ahead", "inbox_full".
	InputsRefused map[string]uint64

	// Traffic on the server's socket, as the server sends and receives it (above a link
	// conditioner, if any): UDP payload bytes and datagrams.
	BytesIn, BytesOut         uint64
	DatagramsIn, DatagramsOut uint64

	// Gate is what address validation did: Challenges sent, addresses admitted, datagrams
	// from addresses not admitted or for the wrong conversation dropped.
	Gate transport.GateStats

	// TickDuration is the wall time each tick took: admit, simulate, contact and snapshots.
	// It counts the ticks of every room.
	TickDuration TickHistogram
	// Rooms are the open rooms, by name (see rooms.go). Players above is their sum;
	// TickDuration and Ticks also count the ticks of rooms that have closed.
	Rooms []RoomStats

	Shots        uint64            // Fires accepted and judged
	Hits         uint64            // accepted shots that hit a tank
	Kills        uint64            // tanks destroyed
	Respawns     uint64            // destroyed tanks brought back
	FiresDropped uint64            // Fires beyond the per-tick and waiting limits, dropped unanswered
	ShotsRefused map[string]uint64 // Fires refused, by reason (the ShotRefusal name without prefix, lower case)
	// The datagram lane (Config.Lane datagram).
	InputsEarly      uint64 // MoveInputs queued from an InputBatch datagram, before their stream copy
	InputsRedundant  uint64 // copies of a MoveInput already queued (datagram repeats, stream copies)
	InputsPastGap    uint64 // datagram MoveInputs left to the stream because an earlier tick was missing
	DatagramsBad     uint64 // undecodable or oversized datagrams, wrong kinds, inputs breaking the rules
	DatagramsDropped uint64 // well-formed datagrams ignored: before Welcome, on the reliable lane, or a flood

	// Snapshot entries sent, one per tank per client that received it, split by whether the
	// tank moved in that tick, and the bytes those PlayerStates took (with their field tag
	// and length): what one tank costs a client, moving or idle.
	StatesMoving, StatesIdle         uint64
	StateBytesMoving, StateBytesIdle uint64
}

// counters is the live, atomically updated form of Stats.
type counters struct {
	ticks, joins, rejects, drops, leaves                                  atomic.Uint64
	applied, staleInputs, clamped, deferred, contacts, badFrames, evicted atomic.Uint64
	players                                                               atomic.Int64
	statesMoving, statesIdle, stateBytesMoving, stateBytesIdle            atomic.Uint64

	rejectsByCode, dropsByReason, inputsRefused                             tally
	tickDuration                                                            tickHistogram
	pingsIgnored                                                            atomic.Uint64
	shots, hits, kills, respawns, firesDropped                              atomic.Uint64
	shotsRefused                                                            tally // by transport.RefusalLabel
	earlyInputs, redundantInputs, gapInputs, badDatagrams, droppedDatagrams atomic.Uint64
}

// snapshot reads the live counts into a Stats: those of the Metrics table through it, the
// rest (totals, the histogram, the per-motion counts) here.
func (c *counters) snapshot() Stats {
	st := Stats{
		Players: int(c.players.Load()), Rejects: c.rejects.Load(), Drops: c.drops.Load(),
		TickDuration: c.tickDuration.snapshot(),
		StatesMoving: c.statesMoving.Load(), StatesIdle: c.statesIdle.Load(),
		StateBytesMoving: c.stateBytesMoving.Load(), StateBytesIdle: c.stateBytesIdle.Load(),
	}
	for _, m := range Metrics {
		m.fill(&st, c)
	}
	return st
}

// snapCost is what the tank entries of one snapshot cost, moving and idle tanks apart.
type snapCost struct{ moving, idle, movingBytes, idleBytes int }

func (c *snapCost) add(moved bool, bytes int) {
	if moved {
		c.moving, c.movingBytes = c.moving+1, c.movingBytes+bytes
	} else {
		c.idle, c.idleBytes = c.idle+1, c.idleBytes+bytes
	}
}

// times returns what n copies of the snapshot cost, as when one is sent to n clients.
func (c snapCost) times(n int) snapCost {
	return snapCost{moving: c.moving * n, idle: c.idle * n, movingBytes: c.movingBytes * n, idleBytes: c.idleBytes * n}
}

// sentCost counts the entries of one snapshot sent to one client.
func (c *counters) sentCost(s snapCost) {
	c.statesMoving.Add(uint64(s.moving))
	c.stateBytesMoving.Add(uint64(s.movingBytes))
	c.statesIdle.Add(uint64(s.idle))
	c.stateBytesIdle.Add(uint64(s.idleBytes))
}

// reject counts one refused handshake under its code.
func (c *counters) reject(label string) {
	c.rejects.Add(1)
	c.rejectsByCode.add(label)
}

// drop counts one player the server removed, under the kind of its reason.
func (c *counters) drop(reason dropReason) {
	c.drops.Add(1)
	c.dropsByReason.add(dropLabel(reason.kind.code))
}

// Players returns how many players are in the game now: a cheaper read than Stats, for
// callers polling it often (an orchestrator's player counter). Safe at any time.
func (s *Server) Players() int { return int(s.stats.players.Load()) }
