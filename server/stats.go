package server

import "sync/atomic"

// Stats are the server's running totals, safe to read while it runs.
type Stats struct {
	Ticks          uint64 // simulation ticks run
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
}

// counters is the live, atomically updated form of Stats.
type counters struct {
	ticks, joins, rejects, drops, leaves                                  atomic.Uint64
	applied, staleInputs, clamped, deferred, contacts, badFrames, evicted atomic.Uint64
}

func (c *counters) snapshot() Stats {
	return Stats{
		Ticks: c.ticks.Load(), Joins: c.joins.Load(), Rejects: c.rejects.Load(),
		Drops: c.drops.Load(), Leaves: c.leaves.Load(),
		InputsApplied: c.applied.Load(), InputsStale: c.staleInputs.Load(),
		InputsClamped: c.clamped.Load(), InputsDeferred: c.deferred.Load(),
		Contacts: c.contacts.Load(), BadFrames: c.badFrames.Load(), Evicted: c.evicted.Load(),
	}
}
