package server

import "tanknet/transport"

// Stats are the server's running totals, safe to read while it runs. Server.Stats copies
// most of them from the live counts (counters, in counts.go) and fills the rest from the
// socket, the gate and the rooms; Rejects and Drops are the totals of their splits.
//
// Each figure's metric is declared by its field's tag, from which /metrics is derived:
//   - metric is its name on /metrics after the Namespace; ",gauge" marks a level that goes
//     up and down. A TickHistogram is exported as a histogram, any other figure as a running
//     total. help is the sentence /metrics describes it with.
//   - A map is split by its label, and exported at zero for every value of the list its
//     values tag names (see labelValues). Several fields may each hold one value of a
//     metric's label (label:"motion=idle"); the first carries the help.
//
// metrictable.go reads the tags into Metrics; it panics when the program starts if a tag is
// wrong.
type Stats struct {
	Ticks          uint64 `metric:"ticks_total" help:"Server ticks run, in every room."`
	Players        int    `metric:"players,gauge" help:"Players in the game."` // in every room
	Joins          uint64 `metric:"joins_total" help:"Handshakes accepted."`
	Rejects        uint64 // handshakes refused (version, full, bad hello, shutting down, ...)
	Drops          uint64 // players removed for a protocol error, timeout or slow link
	Leaves         uint64 `metric:"leaves_total" help:"Players that left on their own (goodbye or closed connection)."`
	InputsApplied  uint64 `metric:"inputs_applied_total" help:"MoveInputs simulated."`
	InputsStale    uint64 `metric:"inputs_stale_total" help:"MoveInputs at or below a tick already queued, ignored."`
	InputsClamped  uint64 `metric:"inputs_clamped_total" help:"MoveInputs with turn or throttle outside [-1, 1], clamped."`
	InputsDeferred uint64 `metric:"inputs_deferred_total" help:"Times a player's next input waited a tick for its time budget."`
	Contacts       uint64 `metric:"contacts_total" help:"Tank pairs pushed apart by contact resolution."`
	Pushes         uint64 `metric:"pushes_total" help:"Contact pushes of clients' MoveInputs applied (contact predicted)."`
	BadFrames      uint64 `metric:"bad_frames_total" help:"Undecodable or oversized frames and unknown message kinds received."`
	Evicted        uint64 `metric:"handshakes_evicted_total" help:"Silent handshakes closed to make room for newer connections."`
	Handshaking    int    `metric:"handshakes_in_progress,gauge" help:"Connections that have not finished their Hello."`
	PingsIgnored   uint64 `metric:"pings_ignored_total" help:"Pings beyond the allowed rate, not answered."`

	// RejectsByCode splits Rejects by reject code: "version_mismatch", "server_full",
	// "bad_hello", "shutting_down", "busy" (the join queue was full), "no_room" (see rooms.go).
	RejectsByCode map[string]uint64 `metric:"rejects_total" label:"code" values:"rejectCodes" help:"Handshakes refused, by reject code."`
	// DropsByReason splits Drops by the code of their reason (the Disconnect's): "timeout",
	// "protocol_error", "cannot_keep_up", "not_acknowledging", "other" (see dropKinds).
	DropsByReason map[string]uint64 `metric:"drops_total" label:"reason" values:"dropKinds" help:"Players the server removed, by kind of reason."`
	// InputsRefused counts the MoveInputs that got their client dropped, by the rule they
	// broke: "not_finite", "duration", "too_far_ahead", "inbox_full".
	InputsRefused map[string]uint64 `metric:"inputs_refused_total" label:"rule" values:"inputRules" help:"MoveInputs that broke a rule and got their client dropped, by rule."`
	// PushesRefused counts the contact pushes applied as zero, by world.PushRefusal's label:
	// "not_predicted", "too_long", "no_contact".
	PushesRefused map[string]uint64 `metric:"pushes_refused_total" label:"reason" values:"pushRefusals" help:"Contact pushes of MoveInputs applied as zero because the rules did not allow them, by reason."`

	// Traffic on the server's socket, as the server sends and receives it (above a link
	// conditioner, if any): UDP payload bytes and datagrams.
	BytesIn      uint64 `metric:"received_bytes_total" help:"UDP payload bytes received by the server socket."`
	BytesOut     uint64 `metric:"sent_bytes_total" help:"UDP payload bytes sent by the server socket."`
	DatagramsIn  uint64 `metric:"received_datagrams_total" help:"UDP datagrams received by the server socket."`
	DatagramsOut uint64 `metric:"sent_datagrams_total" help:"UDP datagrams sent by the server socket."`

	// Gate is what address validation did: Challenges sent, addresses admitted, datagrams
	// from addresses not admitted or for the wrong conversation dropped. Its metrics are
	// declared with it, in server/metrics.
	Gate transport.GateStats

	// TickDuration is the wall time each tick took: admit, simulate, contact and snapshots.
	// It counts the ticks of every room.
	TickDuration TickHistogram `metric:"tick_duration_seconds" help:"Wall time of one server tick on its room's world goroutine, every room's ticks together: admit inputs, simulate, resolve contact, encode tank states; with interest management, per-client snapshots are built after it on worker goroutines."`
	// Rooms are the open rooms, by name (see rooms.go). Players above is their sum;
	// TickDuration and Ticks also count the ticks of rooms that have closed.
	Rooms []RoomStats

	Shots        uint64 `metric:"shots_total" help:"Fires accepted and judged."`
	Hits         uint64 `metric:"shot_hits_total" help:"Accepted shots that hit a tank."`
	Kills        uint64 `metric:"kills_total" help:"Tanks destroyed."`
	Respawns     uint64 `metric:"respawns_total" help:"Destroyed tanks brought back."`
	FiresDropped uint64 `metric:"fires_dropped_total" help:"Fires beyond the per-tick and waiting limits, dropped unanswered."`
	// ShotsRefused counts the Fires refused, by reason: the ShotRefusal name without its
	// prefix, in lower case.
	ShotsRefused map[string]uint64 `metric:"shots_refused_total" label:"reason" values:"refusalNames" help:"Fires refused, by reason (the ShotRefusal without its prefix)."`

	// The datagram lane (Config.Lane datagram): how the redundant inputs arrived, and what
	// was thrown away.
	InputsEarly      uint64 `metric:"inputs_early_total" help:"MoveInputs queued from an InputBatch datagram before their copy on the reliable stream arrived."`
	InputsRedundant  uint64 `metric:"inputs_redundant_total" help:"Copies of a MoveInput already queued: datagram repeats and stream copies."`
	InputsPastGap    uint64 `metric:"inputs_past_gap_total" help:"Datagram MoveInputs left to the reliable stream because an earlier tick was still missing."`
	DatagramsBad     uint64 `metric:"lane_datagrams_bad_total" help:"Unreliable-lane datagrams that were undecodable, oversized, of a wrong kind, or carried inputs breaking the rules."`
	DatagramsDropped uint64 `metric:"lane_datagrams_ignored_total" help:"Well-formed unreliable-lane datagrams ignored: before the Welcome, on a server using the reliable lane, or beyond the rate allowed."`

	// Snapshot entries sent, one per tank per client that received it, split by whether the
	// tank moved in that tick, and the bytes those PlayerStates took (with their field tag
	// and length): what one tank costs a client, moving or idle.
	StatesMoving     uint64 `metric:"snapshot_states_total" label:"motion=moving" help:"Tank entries sent in snapshots, one per tank per receiving client, by whether the tank moved that tick."`
	StatesIdle       uint64 `metric:"snapshot_states_total" label:"motion=idle"`
	StateBytesMoving uint64 `metric:"snapshot_state_bytes_total" label:"motion=moving" help:"Bytes of the tank entries sent in snapshots, by whether the tank moved that tick."`
	StateBytesIdle   uint64 `metric:"snapshot_state_bytes_total" label:"motion=idle"`
}

// Players returns how many players are in the game now: a cheaper read than Stats, for
// callers polling it often (an orchestrator's player counter). Safe at any time.
func (s *Server) Players() int { return int(s.stats.players.Load()) }
