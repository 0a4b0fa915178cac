package server

import (
	"sync/atomic"

	"tanknet/transport"
)

// Stats are the server's running totals, safe to read while it runs.
//
// Each figure is declared once, here, by its field and the field's tag, from which both
// Stats and /metrics are derived:
//   - metric is its name on /metrics after the Namespace; ",gauge" marks a level that goes
//     up and down. A TickHistogram is exported as a histogram, any other figure as a running
//     total. help is the sentence /metrics describes it with.
//   - counter names the live count (a field of counters) Stats reads it from. A figure
//     without one is filled by Server.Stats from elsewhere: the socket, the gate, the rooms.
//   - A map is split by its label, and exported at zero for every value of the list its
//     values tag names (see labelValues). Several fields may each hold one value of a
//     metric's label (label:"motion=idle"); the first carries the help.
//   - sum makes a field the total of a map of Stats.
//
// metrictable.go reads the tags into Metrics, and counts.go into the copy from the live
// counts; either panics when the program starts if a tag is wrong or a live count is shown
// by no field.
type Stats struct {
	Ticks          uint64 `metric:"ticks_total" counter:"ticks" help:"Server ticks run, in every room."`
	Players        int    `metric:"players,gauge" counter:"players" help:"Players in the game."` // in every room
	Joins          uint64 `metric:"joins_total" counter:"joins" help:"Handshakes accepted."`
	Rejects        uint64 `sum:"RejectsByCode"` // handshakes refused (version, full, bad hello, shutting down, ...)
	Drops          uint64 `sum:"DropsByReason"` // players removed for a protocol error, timeout or slow link
	Leaves         uint64 `metric:"leaves_total" counter:"leaves" help:"Players that left on their own (goodbye or closed connection)."`
	InputsApplied  uint64 `metric:"inputs_applied_total" counter:"applied" help:"MoveInputs simulated."`
	InputsStale    uint64 `metric:"inputs_stale_total" counter:"staleInputs" help:"MoveInputs at or below a tick already queued, ignored."`
	InputsClamped  uint64 `metric:"inputs_clamped_total" counter:"clamped" help:"MoveInputs with turn or throttle outside [-1, 1], clamped."`
	InputsDeferred uint64 `metric:"inputs_deferred_total" counter:"deferred" help:"Times a player's next input waited a tick for its time budget."`
	Contacts       uint64 `metric:"contacts_total" counter:"contacts" help:"Tank pairs pushed apart by contact resolution."`
	Pushes         uint64 `metric:"pushes_total" counter:"pushes" help:"Contact pushes of clients' MoveInputs applied (contact predicted)."`
	BadFrames      uint64 `metric:"bad_frames_total" counter:"badFrames" help:"Undecodable or oversized frames and unknown message kinds received."`
	Evicted        uint64 `metric:"handshakes_evicted_total" counter:"evicted" help:"Silent handshakes closed to make room for newer connections."`
	Handshaking    int    `metric:"handshakes_in_progress,gauge" help:"Connections that have not finished their Hello."`
	PingsIgnored   uint64 `metric:"pings_ignored_total" counter:"pingsIgnored" help:"Pings beyond the allowed rate, not answered."`

	// RejectsByCode splits Rejects by reject code: "version_mismatch", "server_full",
	// "bad_hello", "shutting_down", "busy" (the join queue was full), "no_room" (see rooms.go).
	RejectsByCode map[string]uint64 `metric:"rejects_total" label:"code" values:"rejectCodes" counter:"rejectsByCode" help:"Handshakes refused, by reject code."`
	// DropsByReason splits Drops by the code of their reason (the Disconnect's): "timeout",
	// "protocol_error", "cannot_keep_up", "not_acknowledging", "other" (see dropKinds).
	DropsByReason map[string]uint64 `metric:"drops_total" label:"reason" values:"dropKinds" counter:"dropsByReason" help:"Players the server removed, by kind of reason."`
	// InputsRefused counts the MoveInputs that got their client dropped, by the rule they
	// broke: "not_finite", "duration", "too_far_ahead", "inbox_full".
	InputsRefused map[string]uint64 `metric:"inputs_refused_total" label:"rule" values:"inputRules" counter:"inputsRefused" help:"MoveInputs that broke a rule and got their client dropped, by rule."`
	// PushesRefused counts the contact pushes applied as zero, by world.PushRefusal's label:
	// "not_predicted", "too_long", "no_contact".
	PushesRefused map[string]uint64 `metric:"pushes_refused_total" label:"reason" values:"pushRefusals" counter:"pushesRefused" help:"Contact pushes of MoveInputs applied as zero because the rules did not allow them, by reason."`

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
	TickDuration TickHistogram `metric:"tick_duration_seconds" counter:"tickDuration" help:"Wall time of one server tick on its room's world goroutine, every room's ticks together: admit inputs, simulate, resolve contact, encode tank states; with interest management, per-client snapshots are built after it on worker goroutines."`
	// Rooms are the open rooms, by name (see rooms.go). Players above is their sum;
	// TickDuration and Ticks also count the ticks of rooms that have closed.
	Rooms []RoomStats

	Shots        uint64 `metric:"shots_total" counter:"shots" help:"Fires accepted and judged."`
	Hits         uint64 `metric:"shot_hits_total" counter:"hits" help:"Accepted shots that hit a tank."`
	Kills        uint64 `metric:"kills_total" counter:"kills" help:"Tanks destroyed."`
	Respawns     uint64 `metric:"respawns_total" counter:"respawns" help:"Destroyed tanks brought back."`
	FiresDropped uint64 `metric:"fires_dropped_total" counter:"firesDropped" help:"Fires beyond the per-tick and waiting limits, dropped unanswered."`
	// ShotsRefused counts the Fires refused, by reason: the ShotRefusal name without its
	// prefix, in lower case.
	ShotsRefused map[string]uint64 `metric:"shots_refused_total" label:"reason" values:"refusalNames" counter:"shotsRefused" help:"Fires refused, by reason (the ShotRefusal without its prefix)."`

	// The datagram lane (Config.Lane datagram): how the redundant inputs arrived, and what
	// was thrown away.
	InputsEarly      uint64 `metric:"inputs_early_total" counter:"earlyInputs" help:"MoveInputs queued from an InputBatch datagram before their copy on the reliable stream arrived."`
	InputsRedundant  uint64 `metric:"inputs_redundant_total" counter:"redundantInputs" help:"Copies of a MoveInput already queued: datagram repeats and stream copies."`
	InputsPastGap    uint64 `metric:"inputs_past_gap_total" counter:"gapInputs" help:"Datagram MoveInputs left to the reliable stream because an earlier tick was still missing."`
	DatagramsBad     uint64 `metric:"lane_datagrams_bad_total" counter:"badDatagrams" help:"Unreliable-lane datagrams that were undecodable, oversized, of a wrong kind, or carried inputs breaking the rules."`
	DatagramsDropped uint64 `metric:"lane_datagrams_ignored_total" counter:"droppedDatagrams" help:"Well-formed unreliable-lane datagrams ignored: before the Welcome, on a server using the reliable lane, or beyond the rate allowed."`

	// Snapshot entries sent, one per tank per client that received it, split by whether the
	// tank moved in that tick, and the bytes those PlayerStates took (with their field tag
	// and length): what one tank costs a client, moving or idle.
	StatesMoving     uint64 `metric:"snapshot_states_total" label:"motion=moving" counter:"statesMoving" help:"Tank entries sent in snapshots, one per tank per receiving client, by whether the tank moved that tick."`
	StatesIdle       uint64 `metric:"snapshot_states_total" label:"motion=idle" counter:"statesIdle"`
	StateBytesMoving uint64 `metric:"snapshot_state_bytes_total" label:"motion=moving" counter:"stateBytesMoving" help:"Bytes of the tank entries sent in snapshots, by whether the tank moved that tick."`
	StateBytesIdle   uint64 `metric:"snapshot_state_bytes_total" label:"motion=idle" counter:"stateBytesIdle"`
}

// counters are the live counts behind Stats, added to atomically by the rooms' games and
// the sessions. A field here only gives a count its type: what it counts, where Stats
// shows it and its metric are the tag of the Stats field that names it (counter:"applied").
// A count no Stats field names stops the program at its start (see readerOf).
type counters struct {
	ticks, joins, leaves                                                  atomic.Uint64
	applied, staleInputs, clamped, deferred, contacts, badFrames, evicted atomic.Uint64
	pushes                                                                atomic.Uint64
	players                                                               atomic.Int64
	statesMoving, statesIdle, stateBytesMoving, stateBytesIdle            atomic.Uint64

	rejectsByCode, dropsByReason, inputsRefused, pushesRefused              tally
	tickDuration                                                            tickHistogram
	pingsIgnored                                                            atomic.Uint64
	shots, hits, kills, respawns, firesDropped                              atomic.Uint64
	shotsRefused                                                            tally // by netcode.ShotRefusal.Label
	earlyInputs, redundantInputs, gapInputs, badDatagrams, droppedDatagrams atomic.Uint64
}

// statsOfCounters reads counters into Stats.
var statsOfCounters = readerOf[counters, Stats]()

// snapshot reads the live counts into a Stats; Server.Stats adds the figures kept elsewhere.
func (c *counters) snapshot() Stats { return statsOfCounters.read(c) }

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
	c.rejectsByCode.add(label)
}

// drop counts one player the server removed, under the kind of its reason.
func (c *counters) drop(reason dropReason) {
	c.dropsByReason.add(dropLabel(reason.kind))
}

// Players returns how many players are in the game now: a cheaper read than Stats, for
// callers polling it often (an orchestrator's player counter). Safe at any time.
func (s *Server) Players() int { return int(s.stats.players.Load()) }
