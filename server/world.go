package server

import (
	"fmt"
	"log/slog"
	"slices"
	"sync/atomic"
	"time"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
	"tanknet/wire"
)

// peer is the world's view of one connected client. The real one is a KCP session; tests use
// a fake. None of its methods may block.
type peer interface {
	// takeInputs appends the MoveInputs received on the stream since the last call to dst
	// and returns it.
	takeInputs(dst []netcode.PendingInput) []netcode.PendingInput
	// takeDatagramInputs appends the MoveInputs received in InputBatch datagrams since the
	// last call to dst and returns it; copies and gaps are the world's to sort out.
	takeDatagramInputs(dst []netcode.PendingInput) []netcode.PendingInput
	// send queues one framed control message, in order.
	send(frame []byte)
	// takeFires appends the Fires received since the last call to dst and returns it.
	takeFires(dst []netcode.ShotRequest) []netcode.ShotRequest
	// sendSnapshot offers a framed snapshot for the stream; an unsent older one is replaced.
	sendSnapshot(frame []byte)
	// snapshotAck returns the newest server tick of which the client says it received every
	// snapshot chunk (InputBatch.snapshot_ack_tick), 0 before any.
	snapshotAck() uint32
	// sendChunks offers one tick's snapshot chunks for the datagram lane; unsent older ones
	// are replaced.
	sendChunks(chunks [][]byte)
	// kick tells the client why and closes its connection.
	kick(reason dropReason)
	// rtt returns the measured round trip to the client, 0 before there is one.
	rtt() time.Duration
	// inputArrival returns when move tick first arrived (server time), if it is known.
	inputArrival(tick uint32) (time.Duration, bool)
	// inputMode returns how the client asked for its inputs to be applied (InputMode).
	inputMode() inputMode
}

// player is one tank in the world.
type player struct {
	id       uint32
	name     string
	peer     peer
	pose     netcode.Pose
	prevPose netcode.Pose           // pose at the end of the previous tick, to tell moving from idle
	moving   bool                   // the pose changed in this tick (for the bytes counted as moving)
	ack      uint32                 // last applied move tick
	last     uint32                 // last queued or applied move tick
	streamed uint32                 // last move tick that came on the stream
	queue    []netcode.PendingInput // admitted, not yet simulated, in tick order
	granted  time.Duration          // simulated time given to this player so far
	input    netcode.InputReport    // this tick's input buffer report, sent in the player's own state
	pace     pace                   // simulated time given in the last second
	joinedAt time.Duration
	// firstTick is the first tick whose snapshot the player was sent.
	firstTick uint32
	// rosterSeen is how many of this tick's roster changes the player's own full roster
	// already covered when it joined (0 once told; see flushRoster).
	rosterSeen int
	// parting is the reason of a player that left on its own (a Goodbye or a closed
	// connection) while inputs it sent were still queued; partTicks counts the ticks since.
	// See part.
	parting   string
	partTicks int

	// Combat (see combat.go and fire.go).
	health         uint32
	destroyed      bool
	kills, deaths  uint32
	respawnAt      uint32                // server tick a destroyed tank comes back
	protectedUntil uint32                // first server tick without spawn protection
	shots          shotClock             // when the last accepted shot was, for the cooldown
	moves          [moveHistory]movePose // pose after each recent applied move tick
	fires          []netcode.ShotRequest // received, not yet judged
	view           view                  // what this client is sent (interest management)
	entry          []byte                // this tick's PlayerState as others see it, encoded once for every snapshot
	own            []byte                // this tick's PlayerState as its own player sees it: entry plus the input report
	ownBuf         []byte                // own's storage, when it differs from entry
	reports        bool                  // own differs from entry: this tick has an input report
	now            wire.Tank             // this tick's state, as delta encoding compares it
	sent           sentLog               // what this client was sent, for delta baselines
}

// TickRecord is the authoritative outcome of one tick, for observers that measure clients
// against ground truth (tanksim). Poses is indexed like IDs and only valid during the call.
type TickRecord struct {
	Room     string // the room whose tick this was (see rooms.go)
	Tick     uint32
	Now      time.Duration // server time of the tick, since the server started
	IDs      []uint32
	Poses    []netcode.Pose
	Duration time.Duration // wall time the tick took, filled in by the loop
	Dropped  []uint32      // players the server dropped during this tick
	// Applied lists every MoveInput simulated in this tick, by player, in order.
	Applied []AppliedInput
	// Starved lists the players that had applied inputs before but had none waiting in this
	// tick: their tank stood still for lack of input, not for lack of time budget.
	Starved []uint32
	// Doubled lists the players that had more than one MoveInput applied in this tick: their
	// tank moved two steps' worth or more at once (a backlog draining, or inputs on arrival).
	Doubled []uint32
	// Combat is each tank's health and respawn after this tick's shots, indexed like IDs.
	Combat []TankCombat
	// Acks is each tank's last applied move tick, indexed like IDs.
	Acks []uint32
	// Events lists who was placed (joined or respawned) and who left since the previous
	// tick's record, in order; they all happened before this tick's inputs were applied.
	Events []WorldEvent
}

// WorldEvent is a change to who is in the world: a player placed at Pose (a join or a
// respawn) or, with Left, a player gone. A recording keeps them to rebuild the world.
type WorldEvent struct {
	Player uint32
	Left   bool
	Pose   netcode.Pose
}

// TankCombat is one tank's combat state at the end of a tick.
type TankCombat struct {
	Health      uint32 // health points left; 0 for a wreck
	Destroyed   bool   // a wreck waiting to respawn
	RespawnTick uint32 // the server tick a wreck comes back; 0 when not destroyed
}

// AppliedInput says that the server simulated player's MoveInput of tick MoveTick.
type AppliedInput struct {
	Player, MoveTick uint32
	// Input and Duration are what was simulated (a wreck's input is zero).
	Input    netcode.Input
	Duration time.Duration
	// Wait is how long the input waited at the server between its arrival and this tick;
	// -1 when its arrival time is unknown.
	Wait time.Duration
}

// world is the game state. Exactly one goroutine calls its methods.
type world struct {
	leadGrace uint32 // ticks of input lead a late-running server owes its clients (pause.go)
	graceHeld uint32 // ticks before leadGrace starts to shrink (pause.go)
	cfg       *Config
	log       *slog.Logger
	stats     *counters
	room      string // the room this world is, for its Welcomes and tick records
	tick      uint32
	idSource  *atomic.Uint32 // the server's last player id, shared by its rooms; nil: nextID alone
	nextID    uint32
	players   []*player // in increasing id order

	inputs  []netcode.PendingInput // scratch for takeInputs
	copies  []netcode.PendingInput // scratch for takeDatagramInputs
	shared  sentLog                // what every client was sent, when all are sent every tank
	entries wire.EntryEncoder      // encodes each tank once a tick
	applied []AppliedInput
	starved []uint32
	doubled []uint32
	buffer  *bufferStats   // the room's input buffer figures; nil counts none
	poses   []netcode.Pose // scratch for contact
	ids     []uint32
	acks    []uint32
	events  []WorldEvent   // since the last tick's record (journal.go)
	told    []WorldEvent   // the events the last tick's record carried
	combat  []TankCombat   // each tank's combat state, for the tick record
	gone    []uint32       // players dropped this tick
	changes []rosterChange // joins and leaves since the last roster update, in order
	hist    *history       // what every snapshot showed, for lag compensation
	targets []netcode.Target
	// interest picks each client's tanks; nil sends every client every tank.
	interest *interest
	// fan is the per-client half of each tick's snapshots, and the scratch it builds them in.
	fan fanout
}

func newWorld(cfg *Config, log *slog.Logger, stats *counters) *world {
	// The rewind window, the tick being judged and one spare: a view may name any tick from
	// RewindWindow before the judging tick up to the previous tick.
	hist := newHistory(int(netcode.Ticks(cfg.Rules.RewindWindow)) + 2)
	w := &world{cfg: cfg, log: log, stats: stats, nextID: 1, hist: hist,
		interest: newInterest(&cfg.Arena, cfg.viewRadius(), netcode.ViewHysteresis, len(hist.ring))}
	w.fan.scratch = make([]snapScratch, 1)
	return w
}

// join adds a player for p and queues its Welcome and the whole roster, or returns a Reject.
// The others hear of it in the roster update at the end of the tick.
func (w *world) join(now time.Duration, name string, p peer) (*player, *tankv1.Reject) {
	if len(w.players) >= w.cfg.MaxPlayers {
		reason := fmt.Sprintf("server full (%d players)", w.cfg.MaxPlayers)
		if w.room != "" && w.room != DefaultRoom {
			reason = fmt.Sprintf("room %q full (%d players)", w.room, w.cfg.MaxPlayers)
		}
		return nil, &tankv1.Reject{Code: tankv1.RejectCode_REJECT_CODE_SERVER_FULL, Reason: reason}
	}
	pl := &player{id: w.newID(), peer: p, joinedAt: now, firstTick: w.tick + 1}
	pl.name = w.uniqueName(cleanName(name, pl.id))
	w.spawn(pl)
	p.send(w.encode(&tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Welcome{Welcome: &tankv1.Welcome{
		PlayerId: pl.id, TickIntervalMs: uint32(netcode.StepInterval / time.Millisecond),
		ServerTick: w.tick, Arena: wire.ArenaToProto(&w.cfg.Arena), MaxInputLead: w.cfg.inputLead(),
		Rules:        wire.RulesToProto(w.cfg.Rules),
		SnapshotLane: wire.LaneToProto(w.cfg.Lane),
		Room:         w.room,
	}}}))
	w.sendFullRoster(pl)
	w.noteJoin(pl)
	pl.rosterSeen = len(w.changes) // its roster already has every change so far
	w.players = append(w.players, pl)
	w.stats.joins.Add(1)
	w.stats.players.Add(1)
	w.log.Info("player joined", "player", pl.id, "name", pl.name, "players", len(w.players))
	return pl, nil
}

// newID returns the id of a new player: the next of the server's ids when the world is one
// of its rooms, the next of its own otherwise. nextID follows it, for spawn points.
func (w *world) newID() uint32 {
	id := w.nextID
	if w.idSource != nil {
		id = w.idSource.Add(1)
	}
	w.nextID = id + 1
	return id
}

// leave removes player id, if present; the others hear of it at the end of the tick.
func (w *world) leave(id uint32, reason string) {
	reason = cleanText(reason, maxReasonBytes)
	i := slices.IndexFunc(w.players, func(p *player) bool { return p.id == id })
	if i < 0 {
		return
	}
	w.players = slices.Delete(w.players, i, i+1)
	w.stats.players.Add(-1)
	w.noteLeave(id, reason)
	w.events = append(w.events, WorldEvent{Player: id, Left: true})
	w.log.Info("player left", "player", id, "reason", reason, "players", len(w.players))
}

// drop kicks player p for reason and removes it.
func (w *world) drop(p *player, reason dropReason) {
	w.stats.drop(reason)
	w.log.Warn("dropping player", "player", p.id, "reason", reason.String(), "code", reason.kind.code.String())
	p.peer.kick(reason)
	w.leave(p.id, reason.String())
}

// step runs one server tick at server time now: admit inputs, simulate, resolve contact,
// and send the snapshot. It returns the tick's record for observers.
func (w *world) step(now time.Duration) TickRecord {
	w.settle() // the last tick's per-client snapshots are done with the players
	w.tick++
	w.stats.ticks.Add(1)
	w.gone, w.applied, w.starved, w.doubled = w.gone[:0], w.applied[:0], w.starved[:0], w.doubled[:0]
	w.finishParting()
	w.respawn()
	for i := 0; i < len(w.players); {
		p := w.players[i]
		w.takeFires(p)
		if reason := w.simulate(p, now); reason.dropping() {
			w.drop(p, reason)
			w.gone = append(w.gone, p.id)
			continue // drop removed players[i]
		}
		i++
	}
	w.poses, w.ids, w.acks = w.poses[:0], w.ids[:0], w.acks[:0]
	for _, p := range w.players {
		w.poses, w.ids, w.acks = append(w.poses, p.pose), append(w.ids, p.id), append(w.acks, p.ack)
	}
	if w.cfg.Contact {
		if n := netcode.ResolveContacts(&w.cfg.Arena, w.poses); n > 0 {
			w.stats.contacts.Add(uint64(n))
			for i, p := range w.players {
				p.pose = w.poses[i]
			}
		}
	}
	w.judgeFires()
	w.combat = w.combat[:0]
	for _, p := range w.players {
		c := TankCombat{Health: p.health, Destroyed: p.destroyed}
		if p.destroyed {
			c.RespawnTick = p.respawnAt
		}
		w.combat = append(w.combat, c)
	}
	w.hist.record(w.tick, w.players)
	w.flushRoster() // before the snapshot, so a new tank's name arrives no later than the tank
	w.broadcast()
	return TickRecord{Room: w.room, Tick: w.tick, Now: now, IDs: w.ids, Poses: w.poses, Dropped: w.gone,
		Applied: w.applied, Starved: w.starved, Doubled: w.doubled, Combat: w.combat, Acks: w.acks, Events: w.takeEvents()}
}

// simulate admits p's new inputs and applies as many queued ones as its time budget allows.
// It returns a drop reason when p must be dropped.
func (w *world) simulate(p *player, now time.Duration) dropReason {
	if reason := w.admitInputs(p); reason.dropping() {
		return reason
	}
	playing := p.ack > 0 && p.parting == "" // a player-tick of the input buffer's figures
	starved := playing && len(p.queue) == 0
	if starved {
		w.starved = append(w.starved, p.id)
	}
	n := w.apply(p, now)
	if n > 1 {
		w.doubled = append(w.doubled, p.id)
	}
	if playing && w.buffer != nil {
		w.buffer.note(starved, n, len(p.queue))
	}
	return dropReason{}
}

// admitInputs checks p's MoveInputs received since the last call, on the stream and as
// datagram copies, and queues the good ones. It returns a drop reason when p must be
// dropped.
func (w *world) admitInputs(p *player) dropReason {
	w.inputs = p.peer.takeInputs(w.inputs[:0])
	for _, in := range w.inputs {
		raw := in.Input
		in, v, rule, reason := admit(in, p.last, p.ack, w.lead(), w.cfg)
		switch v {
		case refused:
			w.stats.inputsRefused.add(rule)
			return dropProtocol.reason(reason)
		case stale:
			if in.Tick > p.streamed { // the stream's copy of a tick a datagram brought first
				w.stats.redundantInputs.Add(1)
				p.streamed = in.Tick
			} else {
				w.stats.staleInputs.Add(1)
			}
			continue
		}
		if in.Input != raw {
			w.stats.clamped.Add(1)
		}
		p.queue = append(p.queue, in)
		p.last, p.streamed = in.Tick, in.Tick
	}
	w.admitCopies(p)
	return dropReason{}
}

// apply simulates as many of p's queued inputs as are due this tick and its time budget
// allows, notes the tick's input report, and returns how many it applied.
func (w *world) apply(p *player, now time.Duration) int {
	// (A tick whose one input is held back by the time budget below stands the tank still
	// too, but that is the movement rules at work, not a late input.)
	budget := min(now-p.joinedAt+w.cfg.TimeSlack, p.granted+w.cfg.MaxSimPerTick,
		p.granted+p.pace.left(now, w.cfg.MaxSimPerSecond))
	due, queued := w.dueInputs(p), len(p.queue)
	before, n := p.granted, 0
	p.input = netcode.InputReport{}
	for _, in := range p.queue[:due] {
		if p.granted+in.Duration > budget || n >= w.cfg.maxInputsPerTick() {
			w.stats.deferred.Add(1)
			break
		}
		wait := time.Duration(-1)
		if at, ok := p.peer.inputArrival(in.Tick); ok {
			wait = max(now-at, 0)
			p.input.Wait = wait
			if w.buffer != nil && p.parting == "" {
				w.buffer.noteWait(wait)
			}
		}
		if p.destroyed {
			in.Input = netcode.Input{} // a wreck does not move, but its clock runs on
		}
		p.pose = netcode.Simulate(&w.cfg.Arena, p.pose, in.Input, in.Duration)
		p.granted += in.Duration
		p.ack = in.Tick
		p.recordMove(in.Tick)
		w.applied = append(w.applied, AppliedInput{Player: p.id, MoveTick: in.Tick, Input: in.Input, Duration: in.Duration, Wait: wait})
		n++
	}
	p.pace.grant(now, p.granted-before)
	w.stats.applied.Add(uint64(n))
	p.queue = p.queue[:copy(p.queue, p.queue[n:])]
	p.input.Waiting = len(p.queue)
	p.input.Starved = queued == 0 && p.ack > 0 // none had come (a tick the budget held is not late)
	if w.onArrival(p) {
		p.input = netcode.InputReport{} // no buffer, nothing to report: a client's clock keeps its rate
	}
	return n
}

// broadcast sends this tick's snapshot. On the datagram lane each player gets its own,
// delta encoded against the newest one it acknowledged (see delta.go); on the stream the
// same bytes go to every player. With interest management (see interest) a player is sent
// its own tank and the ones in its view; without, every tank.
func (w *world) broadcast() {
	for _, p := range w.players {
		p.now = wire.TankOf(p.id, netcode.State{Tick: w.tick, Pose: p.pose, Ack: p.ack}, wire.Combat{Health: p.health,
			Kills: p.kills, Deaths: p.deaths, Destroyed: p.destroyed, SpawnProtected: w.protected(p)})
		var err error
		if p.entry, err = w.entries.Append(p.entry, p.now, w.tick); err != nil {
			w.log.Error("cannot encode a player state; skipping this tick's snapshots", "player", p.id, "err", err)
			return
		}
		// The input report is the player's own business (how its inputs arrive says when it
		// sends them): only its own state carries it.
		p.own, p.reports = p.entry, p.input != (netcode.InputReport{})
		if p.reports {
			mine := p.now
			mine.Input = p.input
			if p.ownBuf, err = w.entries.Append(p.ownBuf, mine, w.tick); err != nil {
				w.log.Error("cannot encode a player state; skipping this tick's snapshots", "player", p.id, "err", err)
				return
			}
			p.own = p.ownBuf
		}
	}
	for _, p := range w.players {
		p.moving = p.pose != p.prevPose
		p.prevPose = p.pose
	}
	sc := &w.fan.scratch[0] // the tick's own scratch: the fan-out's workers have finished
	datagrams := w.cfg.Lane == wire.LaneDatagram
	switch {
	case w.interest == nil && !datagrams:
		w.sendSnapshot(sc, w.players, w.players, nil, w.tick)
	case w.interest == nil:
		// Every client is sent every tank: one record of the tick serves them all, and the
		// clients with no usable baseline share one encoding of whole states.
		rec := w.shared.begin(w.tick)
		for _, m := range w.players {
			rec.tanks = append(rec.tanks, m.now)
		}
		var whole [][]byte
		var wholeCost snapCost
		for _, p := range w.players {
			if base, tick := w.baseline(&w.shared, p, w.tick); base != nil || p.reports {
				w.sendDelta(sc, p, w.players, nil, base, tick, w.tick)
				continue
			}
			if whole == nil {
				if whole, wholeCost = w.encodeDelta(sc, nil, w.players, nil, nil, 0, w.tick); whole == nil {
					return
				}
			}
			p.peer.sendChunks(whole)
			w.stats.sentCost(wholeCost)
		}
	default:
		w.fan.clients = append(w.fan.clients[:0], w.players...) // joins and leaves until the next tick change w.players, not this
		w.interest.place(w.fan.clients)
		w.fanOut()
	}
}

// sendView works out the view of the client at index i of the tick's clients and sends it
// its snapshot, building it in sc. It may run on a fan-out worker: it reads the tick's
// clients and their tank states, and writes only client i's view and sent log.
func (w *world) sendView(i int, sc *snapScratch, tick uint32) {
	p := w.fan.clients[i]
	w.interest.update(int32(i), tick)
	sc.members = sc.members[:0]
	for _, m := range p.view.members {
		sc.members = append(sc.members, w.fan.clients[m])
	}
	sc.left = p.view.leftIDs(sc.left[:0])
	if w.cfg.Lane != wire.LaneDatagram {
		sc.one[0] = p
		w.sendSnapshot(sc, sc.members, sc.one[:], sc.left, tick)
		return
	}
	base, baseline := w.baseline(&p.sent, p, tick)
	rec := p.sent.begin(tick)
	for _, m := range sc.members {
		rec.tanks = append(rec.tanks, m.now)
	}
	w.sendDelta(sc, p, sc.members, sc.left, base, baseline, tick)
}

// baseline returns the snapshot p acknowledged, from log, and its tick, when it is still
// there at server tick tick; nil and 0 otherwise.
func (w *world) baseline(log *sentLog, p *player, tick uint32) (*sentSnapshot, uint32) {
	ack := p.peer.snapshotAck()
	if ack >= tick || tick-ack >= deltaWindow { // older ones share a slot with newer ticks
		return nil, 0
	}
	if base := log.at(ack); base != nil {
		return base, ack
	}
	return nil, 0
}

// sendDelta offers p the snapshot of tick of members (in id order), built in sc, as chunk datagrams, encoded
// against base, the snapshot of tick baseline (nil, 0: every tank whole), with left as its
// left_view. p's own tank always travels whole. It counts the bytes each tank cost.
func (w *world) sendDelta(sc *snapScratch, p *player, members []*player, left []uint32, base *sentSnapshot, baseline, tick uint32) {
	if chunks, cost := w.encodeDelta(sc, p, members, left, base, baseline, tick); chunks != nil {
		p.peer.sendChunks(chunks)
		w.stats.sentCost(cost)
	}
}

// encodeDelta encodes what sendDelta sends (for p nil: every tank whole, for any client
// without a baseline) and returns the chunks, nil after an error it logged, and their cost.
func (w *world) encodeDelta(sc *snapScratch, p *player, members []*player, left []uint32, base *sentSnapshot, baseline, tick uint32) ([][]byte, snapCost) {
	b := &sc.delta
	b.Reset(wire.Header{Tick: tick, Left: left}, baseline)
	var cost snapCost
	for _, m := range members {
		old, ok := wire.Tank{}, false
		if base != nil && m != p {
			old, ok = base.find(m.id)
		}
		entry := m.entry
		if m == p {
			entry = m.own
		}
		cost.add(m.moving, b.Add(entry, m.now, old, ok))
	}
	chunks, err := b.Datagrams()
	if err != nil {
		w.log.Error("cannot cut a snapshot into chunks; skipping it", "err", err)
		return nil, snapCost{}
	}
	return chunks, cost
}

// sendSnapshot offers the snapshot of tick of members (in id order), with left as its
// left_view, to every player in to as one stream frame, built in sc. It counts the tank entries sent.
func (w *world) sendSnapshot(sc *snapScratch, members, to []*player, left []uint32, tick uint32) {
	sc.entries = sc.entries[:0]
	var cost snapCost
	for _, p := range members {
		sc.entries = append(sc.entries, p.entry)
		cost.add(p.moving, wire.EntrySize(p.entry))
	}
	w.stats.sentCost(cost.times(len(to)))
	h := wire.Header{Tick: tick, Left: left}
	var shared []byte
	for _, p := range to {
		if i := slices.Index(members, p); i >= 0 && p.reports {
			sc.entries[i] = p.own // a frame of its own, with its input report
			p.peer.sendSnapshot(wire.StreamFrame(h, sc.entries))
			sc.entries[i] = p.entry
			continue
		}
		if shared == nil {
			shared = wire.StreamFrame(h, sc.entries)
		}
		p.peer.sendSnapshot(shared)
	}
}

// encode frames a server message for w's players; see encode.
func (w *world) encode(m *tankv1.ServerMessage) []byte { return encode(w.log, m) }

// encode frames a server message. Everything the server sends is bounded (names and reasons
// by cleanText, snapshots by MaxPlayers), so an error here is a bug in this package: it is
// logged and the message becomes nil, which peers skip, rather than taking the server down.
func encode(log *slog.Logger, m *tankv1.ServerMessage) []byte {
	b, err := transport.AppendFrame(nil, m)
	if err != nil {
		log.Error("cannot encode server message; dropping it", "kind", fmt.Sprintf("%T", m.GetKind()), "err", err)
		return nil
	}
	return b
}
