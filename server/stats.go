package server

import "tanknet/transport"

// Namespace prefixes the name of every metric of the server's that server/metrics exports.
const Namespace = "tanknet"

// Stats are the server's running totals, safe to read while it runs. Server.Stats copies
// most of them from the live counts (counters, in counts.go) and fills the rest from the
// socket, the gate and the rooms. Package server/metrics exports each on /metrics, where
// the metric's name and help are declared beside the field it reads.
type Stats struct {
	Ticks          uint64 // server ticks run, in every room
	Players        int    // players in the game, in every room
	Joins          uint64 // handshakes accepted
	Rejects        uint64 // handshakes refused: the total of RejectsByCode
	Drops          uint64 // players the server removed: the total of DropsByReason
	Leaves         uint64 // players that left on their own (goodbye or closed connection)
	InputsApplied  uint64 // MoveInputs simulated
	InputsStale    uint64 // MoveInputs at or below a tick already queued, ignored
	InputsClamped  uint64 // MoveInputs with turn or throttle outside [-1, 1], clamped
	InputsDeferred uint64 // times a player's next input waited a tick for its time budget
	Contacts       uint64 // tank pairs pushed apart by contact resolution
	Pushes         uint64 // contact pushes of clients' MoveInputs applied
	BadFrames      uint64 // stream frames undecodable, oversized, of no known kind (or empty) or an InputBatch
	Evicted        uint64 // silent handshakes closed to make room for newer connections
	Handshaking    int    // connections that have not finished their Hello
	PingsIgnored   uint64 // pings beyond the allowed rate, not answered
	Aways          uint64 // players that said they are away (an Away that took), once until back
	AwayTicks      uint64 // player-ticks an away player's tank stood still, not counted as starved

	// RejectsByCode splits Rejects by reject code: "version_mismatch", "server_full",
	// "bad_hello", "shutting_down", "busy" (the join queue was full), "no_room" (see
	// rooms.go). Every code a server sends is among RejectLabels, as are the keys of the
	// other maps below among their lists (labels.go).
	RejectsByCode map[string]uint64
	// DropsByReason splits Drops by the code of their reason (the Disconnect's): "timeout",
	// "protocol_error", "cannot_keep_up", "not_acknowledging", "other" (see dropKinds).
	DropsByReason map[string]uint64
	// InputsRefused counts the MoveInputs that got their client dropped, by the rule they
	// broke: "not_finite", "duration", "too_far_ahead", "inbox_full".
	InputsRefused map[string]uint64
	// PushesRefused counts the contact pushes applied as zero, by world.PushRefusal's label:
	// "not_predicted", "too_long", "no_contact".
	PushesRefused map[string]uint64

	// Traffic on the server's socket, as the server sends and receives it (above a link
	// conditioner, if any): UDP payload bytes and datagrams.
	BytesIn      uint64
	BytesOut     uint64
	DatagramsIn  uint64
	DatagramsOut uint64

	// Gate is what address validation did: Challenges sent, addresses admitted, datagrams
	// from addresses not admitted or for the wrong conversation dropped.
	Gate transport.GateStats

	// TickDuration is the wall time each tick's own work took: admit, simulate, contact and
	// snapshots. It counts the ticks of every room.
	TickDuration TickHistogram
	// TickCPU is the CPU time of the same work, on the thread that ran it: the ticks whose
	// goroutine stayed on one thread throughout, on Linux (elsewhere it stays empty).
	// TickDuration above it is time the tick waited (for a core, a lock, the scheduler).
	TickCPU TickHistogram
	// TickHandoff is what follows each tick's work on its goroutine: waking the session
	// writers given its snapshots and yielding until they took them (room.go).
	TickHandoff TickHistogram
	// Rooms are the open rooms, by name (see rooms.go). Players above is their sum;
	// TickDuration and Ticks also count the ticks of rooms that have closed.
	Rooms []RoomStats

	Shots        uint64 // Fires accepted and judged
	Hits         uint64 // accepted shots that hit a tank
	Kills        uint64 // tanks destroyed
	Respawns     uint64 // destroyed tanks brought back
	FiresDropped uint64 // Fires beyond the per-tick and waiting limits, dropped unanswered
	// ShotsRefused counts the Fires refused, by reason: the ShotRefusal name without its
	// prefix, in lower case.
	ShotsRefused map[string]uint64

	// The datagram lane (Config.Lane datagram): how the redundant inputs arrived, and what
	// was thrown away.
	InputsEarly      uint64 // MoveInputs queued from a datagram before their stream copy
	InputsRedundant  uint64 // copies of a MoveInput already queued
	InputsPastGap    uint64 // datagram MoveInputs left to the stream: an earlier tick was missing
	DatagramsBad     uint64 // lane datagrams undecodable, oversized or of a wrong kind, and copies breaking rules
	DatagramsDropped uint64 // well-formed lane datagrams ignored

	// Snapshot entries sent, one per tank per client that received it, split by whether the
	// tank moved in that tick, and the bytes those PlayerStates took (with their field tag
	// and length): what one tank costs a client, moving or idle.
	StatesMoving     uint64
	StatesIdle       uint64
	StateBytesMoving uint64
	StateBytesIdle   uint64
}

// Players returns how many players are in the game now: a cheaper read than Stats, for
// callers polling it often (an orchestrator's player counter). Safe at any time.
func (s *Server) Players() int { return int(s.stats.players.Load()) }
