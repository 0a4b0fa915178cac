package server

import (
	"fmt"
	"log/slog"
	"slices"
	"sync/atomic"
	"time"

	"tanknet/netcode"
	"tanknet/transport"
	"tanknet/wire"
	"tanknet/world"
)

// peer is the game's view of one connected client. The real one is a KCP session; tests use
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
	// sendRoster queues one framed RosterUpdate with what it says (encodeRoster), as send
	// does; a session may merge it into a RosterUpdate still waiting before it.
	sendRoster(update controlFrame)
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
	inputMode() world.InputMode
	// takeAway returns the last move tick of the newest Away received since the last call,
	// false when none came.
	takeAway() (lastMoveTick uint32, ok bool)
	// awayIgnored says the Away takeAway returned was out of date: the world did not take
	// it, so the session keeps its usual limits unless a newer Away came since.
	awayIgnored()
}

// player is what the server keeps for one client in the room: its peer, name, roster and
// snapshots. Its tank is the world's: the player holds the pointer world.Join returned (read
// at every use as cheaply as a field of its own, where an id would cost a search each time)
// and is the tank's world.Client, so the room's players are the world's tanks' clients
// (players, playerOf): there is no second list to keep in step with the world's.
type player struct {
	tank     *world.Tank
	name     string
	peer     peer
	prevPose netcode.Pose // pose at the end of the previous tick, to tell moving from idle
	moving   bool         // the pose changed in this tick (for the bytes counted as moving)
	// rosterSeen is how many of this tick's roster changes the player's own full roster
	// already covered when it joined (0 once told; see flushRoster).
	rosterSeen int

	view    view      // what this client is sent (interest management)
	entry   []byte    // this tick's PlayerState as others see it, encoded once for every snapshot
	own     []byte    // this tick's PlayerState as its own player sees it: entry plus the input report
	ownBuf  []byte    // own's storage, when it differs from entry
	reports bool      // own differs from entry: this tick has an input report
	state   wire.Tank // this tick's state, as delta encoding compares it
	sent    sentLog   // what this client was sent, for delta baselines
}

// The world asks a player's client (world.Client) these.

// InputMode is how the client asked for its inputs to be applied.
func (p *player) InputMode() world.InputMode { return p.peer.inputMode() }

// RTT is the measured round trip to the client.
func (p *player) RTT() time.Duration { return p.peer.rtt() }

// Sent reports whether the client was sent tank id's state of tick (interest management).
func (p *player) Sent(id, tick uint32) bool { return p.view.shown.has(tick, id) }

// Arrival is when the client's input of move tick first reached the server.
func (p *player) Arrival(tick uint32) (time.Duration, bool) { return p.peer.inputArrival(tick) }

// TickRecord is the authoritative outcome of one tick, for observers that measure clients
// against ground truth (tanksim) and for recordings: what the world did (world.Outcome;
// its slices are only valid during the call), in which room and when.
type TickRecord struct {
	Room     string        // the room whose tick this was (see rooms.go)
	Now      time.Duration // server time of the tick, since the server started
	Duration time.Duration // wall time the tick took, filled in by the loop
	// Dropped lists the players the server dropped in this tick for inputs that broke a
	// rule (their departures are in Events).
	Dropped []uint32
	world.Outcome
}

// game is one room's match: the world (package world) and the clients playing in it.
// Exactly one goroutine calls its methods.
type game struct {
	world    *world.World
	cfg      *Config
	log      *slog.Logger
	stats    *counters
	room     string         // the room this game is, for its Welcomes and tick records
	idSource *atomic.Uint32 // the server's last player id, shared by its rooms; nil: nextID alone
	nextID   uint32
	seated   []*player // players' scratch
	// parting is why each player that left on its own (a Goodbye or a closed connection)
	// left, by id, while the world applies the inputs it sent before (world.Part).
	parting map[uint32]string

	shared  sentLog                // what every client was sent, when all are sent every tank
	entries wire.EntryEncoder      // encodes each tank once a tick
	changes []rosterChange         // joins and leaves since the last roster update, in order
	fires   []netcode.ShotRequest  // scratch for taking a peer's shots
	inputs  []netcode.PendingInput // scratch for taking a peer's inputs
	dropped []uint32               // the players this tick dropped
	// interest picks each client's tanks; nil sends every client every tank.
	interest *interest
	// fan is the per-client half of each tick's snapshots, and the scratch it builds them in.
	fan fanout
}

// worldConfig is what the world of a room needs of cfg.
func (c *Config) worldConfig() world.Config {
	return world.Config{Arena: c.Arena, Rules: c.Rules, MaxPlayers: c.MaxPlayers,
		Interest: c.viewRadius() > 0, InputOnArrival: c.InputOnArrival, InputLead: c.inputLead(),
		MaxInputDuration: c.MaxInputDuration, TimeSlack: c.TimeSlack, MaxSimPerTick: c.MaxSimPerTick,
		MaxSimPerSecond: c.MaxSimPerSecond}
}

func newGame(cfg *Config, log *slog.Logger, stats *counters) *game {
	wc := cfg.worldConfig()
	// What each client was sent is remembered as long as the world remembers the ticks.
	g := &game{world: world.New(wc), cfg: cfg, log: log, stats: stats, nextID: 1,
		interest: newInterest(&cfg.Arena, cfg.viewRadius(), netcode.ViewHysteresis, wc.HistoryTicks())}
	g.fan.scratch = make([]snapScratch, 1)
	return g
}

// tick is the number of the world's last tick: the one whose snapshots are being sent.
func (g *game) tick() uint32 { return g.world.LastTick() }

// countBuffer has the room's input buffer figures counted in b.
func (g *game) countBuffer(b *bufferStats) {
	if b != nil {
		g.world.ObserveBuffer(b)
	}
}

// join adds a player for p and queues its Welcome and the whole roster, or returns a Reject.
// The others hear of it in the roster update at the end of the tick.
func (g *game) join(now time.Duration, name string, p peer) (*player, *wire.Reject) {
	if len(g.world.Tanks()) >= g.cfg.MaxPlayers {
		reason := fmt.Sprintf("server full (%d players)", g.cfg.MaxPlayers)
		if g.room != "" && g.room != DefaultRoom {
			reason = fmt.Sprintf("room %q full (%d players)", g.room, g.cfg.MaxPlayers)
		}
		return nil, &wire.Reject{Code: wire.RejectServerFull, Reason: reason}
	}
	pl, id := &player{peer: p}, g.newID()
	t, err := g.world.Join(id, pl, now)
	if err != nil { // never: the room is not full (above), and newID's ids only grow
		g.log.Error("the world refused a join", "player", id, "err", err)
		return nil, &wire.Reject{Code: wire.RejectBusy, Reason: "server error: " + err.Error()}
	}
	pl.tank = t
	pl.name = g.uniqueName(cleanName(name, id))
	p.send(g.encode(wire.Welcome{PlayerID: id, Arena: g.cfg.Arena, Rules: g.world.Config().Rules, // the room's, as SetContact left them
		ServerTick: g.tick(), MaxInputLead: g.cfg.inputLead(), Lane: g.cfg.Lane, Room: g.room,
		AwayTimeout: g.cfg.AwayTimeout}))
	g.sendFullRoster(pl)
	g.noteJoin(pl)
	pl.rosterSeen = len(g.changes) // its roster already has every change so far
	g.stats.joins.Add(1)
	g.stats.players.Add(1)
	g.log.Info("player joined", "player", id, "name", pl.name, "players", len(g.world.Tanks()))
	return pl, nil
}

// newID returns the id of a new player: the next of the server's ids when the game is one
// of its rooms, the next of its own otherwise.
func (g *game) newID() uint32 {
	id := g.nextID
	if g.idSource != nil {
		id = g.idSource.Add(1)
	}
	g.nextID = id + 1
	return id
}

// leave removes player id, if present; the others hear of it at the end of the tick.
func (g *game) leave(id uint32, reason string) {
	if g.world.Leave(id) {
		g.gone(id, reason)
	}
}

// gone counts player id gone from the world and tells the others why.
func (g *game) gone(id uint32, reason string) {
	delete(g.parting, id)
	reason = cleanText(reason, maxReasonBytes)
	g.stats.players.Add(-1)
	g.noteLeave(id, reason)
	g.log.Info("player left", "player", id, "reason", reason, "players", len(g.world.Tanks()))
}

// drop kicks player p for reason and removes it.
func (g *game) drop(p *player, reason dropReason) {
	g.stats.drop(reason)
	g.log.Warn("dropping player", "player", p.tank.ID(), "reason", reason.String(), "code", reason.kind.code.String())
	p.peer.kick(reason)
	g.leave(p.tank.ID(), reason.String())
}

// part removes player id, which left on its own for reason, once the world has applied
// the inputs it sent before leaving (world.Part).
func (g *game) part(id uint32, reason string) {
	p := g.find(id)
	if _, already := g.parting[id]; p == nil || already {
		return
	}
	if drop := g.feed(p); drop.Rule != "" {
		g.leave(id, reason) // its last inputs broke a rule: it left anyway
		return
	}
	if g.world.Part(id) {
		g.gone(id, reason)
		return
	}
	if g.parting == nil {
		g.parting = make(map[uint32]string)
	}
	g.parting[id] = reason
}

// find returns the player with id, nil if there is none.
func (g *game) find(id uint32) *player {
	if t := g.world.Find(id); t != nil {
		return playerOf(t)
	}
	return nil
}

// playerOf returns the player whose tank t is: every tank in a game's world joined with its
// player as its client (join).
func playerOf(t *world.Tank) *player { return t.Client().(*player) }

// players returns the room's players, in increasing id order: the world's tanks' clients.
// The slice is the game's scratch, valid until the next call.
func (g *game) players() []*player {
	g.seated = g.seated[:0]
	for _, t := range g.world.Tanks() {
		g.seated = append(g.seated, playerOf(t))
	}
	return g.seated
}

// feed hands the world what p's client sent since the last tick: its shots, its inputs on
// the stream and their copies in datagrams. It returns why p's client must be dropped when
// one of its inputs broke a rule.
func (g *game) feed(p *player) world.InputDrop {
	g.fires = p.peer.takeFires(g.fires[:0])
	for _, req := range g.fires {
		if !g.world.Fire(p.tank, req) {
			g.stats.firesDropped.Add(1)
		}
	}
	g.inputs = p.peer.takeInputs(g.inputs[:0])
	if drop := g.world.Queue(p.tank, g.inputs...); drop.Rule != "" {
		return drop
	}
	g.inputs = p.peer.takeDatagramInputs(g.inputs[:0])
	g.world.QueueCopies(p.tank, g.inputs...)
	if last, ok := p.peer.takeAway(); ok && !g.world.Away(p.tank, last) {
		// After every input that came before it, or after one that came after it: then it
		// is out of date and ignored, by the session's limits as well as by the world.
		p.peer.awayIgnored()
	}
	return world.InputDrop{}
}

// step runs one server tick at server time now: the world ticks on what every client sent,
// and the game tells the clients what happened and sends the snapshot. It returns the
// tick's record for observers.
func (g *game) step(now time.Duration) TickRecord {
	g.settle() // the last tick's per-client snapshots are done with the players
	g.stats.ticks.Add(1)
	g.dropped = g.dropped[:0]
	for i := 0; i < len(g.world.Tanks()); {
		p := playerOf(g.world.Tanks()[i])
		if drop := g.feed(p); drop.Rule != "" {
			g.stats.inputsRefused.add(drop.Rule)
			g.drop(p, dropProtocol.reason(drop.Reason)) // takes its tank out of the world: i is the next one's
			g.dropped = append(g.dropped, p.tank.ID())
			continue
		}
		i++
	}
	out := g.world.Tick(now)
	for _, id := range out.Parted {
		g.gone(id, g.parting[id])
	}
	g.count(&out.Counts)
	g.tellShots(out.Shots)
	g.flushRoster() // before the snapshot, so a new tank's name arrives no later than the tank
	g.broadcast(out)
	return TickRecord{Room: g.room, Now: now, Dropped: g.dropped, Outcome: *out}
}

// count adds what the world tallied to the server's counters (most are 0 most ticks).
func (g *game) count(c *world.Counts) {
	s := g.stats
	for _, f := range [...]struct {
		to *atomic.Uint64
		n  uint64
	}{{&s.applied, c.Applied}, {&s.deferred, c.Deferred}, {&s.clamped, c.Clamped}, {&s.staleInputs, c.Stale},
		{&s.redundantInputs, c.Redundant}, {&s.gapInputs, c.Gaps}, {&s.earlyInputs, c.Early},
		{&s.badDatagrams, c.BadCopies}, {&s.contacts, c.Contacts}, {&s.respawns, c.Respawns}, {&s.pushes, c.Pushes},
		{&s.aways, c.Aways}, {&s.awayTicks, c.AwayTicks}} {
		if f.n != 0 {
			f.to.Add(f.n)
		}
	}
	for r, n := range c.PushesRefused {
		if n != 0 {
			s.pushesRefused.addN(world.PushRefusal(r).Label(), n)
		}
	}
}

// broadcast sends this tick's snapshot. On the datagram lane each player gets its own,
// delta encoded against the newest one it acknowledged (see delta.go); on the stream the
// same bytes go to every player. With interest management (see interest) a player is sent
// its own tank and the ones in its view; without, every tank.
func (g *game) broadcast(out *world.Outcome) {
	players := g.players() // the outcome's tanks, in the same order
	if !g.encodeStates(out, players) {
		return
	}
	sc := &g.fan.scratch[0] // the tick's own scratch: the fan-out's workers have finished
	datagrams := g.cfg.Lane == wire.LaneDatagram
	switch {
	case g.interest == nil && !datagrams:
		g.sendSnapshot(sc, players, players, nil, g.tick())
	case g.interest == nil:
		// Every client is sent every tank: one record of the tick serves them all, and the
		// clients with no usable baseline share one encoding of whole states.
		rec := g.shared.begin(g.tick())
		for _, m := range players {
			rec.tanks = append(rec.tanks, m.state)
		}
		var whole [][]byte
		var wholeCost snapCost
		for _, p := range players {
			if base, tick := g.baseline(&g.shared, p, g.tick()); base != nil || p.reports {
				g.sendDelta(sc, p, players, nil, base, tick, g.tick())
				continue
			}
			if whole == nil {
				if whole, wholeCost = g.encodeDelta(sc, nil, players, nil, nil, 0, g.tick()); whole == nil {
					return
				}
			}
			p.peer.sendChunks(whole)
			g.stats.sentCost(wholeCost)
		}
	default:
		g.fan.clients = append(g.fan.clients[:0], players...) // joins and leaves until the next tick change the world, not this
		g.interest.place(g.fan.clients)
		g.fanOut()
	}
}

// encodeStates makes each player's tank state of out (players are out's tanks, in its
// order) and encodes it once for every snapshot, and notes which tanks moved. It reports
// false after an error it logged: the tick then sends no snapshots.
func (g *game) encodeStates(out *world.Outcome, players []*player) bool {
	for i, p := range players {
		p.state = wire.TankOf(out.IDs[i], netcode.State{Tick: g.tick(), Pose: out.Poses[i], Ack: out.Acks[i]}, wire.Combat{Health: out.Combat[i].Health,
			Kills: p.tank.Kills(), Deaths: p.tank.Deaths(), Destroyed: out.Combat[i].Destroyed, SpawnProtected: g.world.Protected(p.tank)})
		var err error
		if p.entry, err = g.entries.Append(p.entry, p.state, g.tick()); err != nil {
			g.log.Error("cannot encode a player state; skipping this tick's snapshots", "player", out.IDs[i], "err", err)
			return false
		}
		// The input report is the player's own business (how its inputs arrive says when it
		// sends them): only its own state carries it.
		report := p.tank.InputReport()
		p.own, p.reports = p.entry, report != (netcode.InputReport{})
		if p.reports {
			mine := p.state
			mine.Input = report
			if p.ownBuf, err = g.entries.Append(p.ownBuf, mine, g.tick()); err != nil {
				g.log.Error("cannot encode a player state; skipping this tick's snapshots", "player", out.IDs[i], "err", err)
				return false
			}
			p.own = p.ownBuf
		}
	}
	for i, p := range players {
		p.moving = out.Poses[i] != p.prevPose
		p.prevPose = out.Poses[i]
	}
	return true
}

// sendView works out the view of the client at index i of the tick's clients and sends it
// its snapshot, building it in sc. It may run on a fan-out worker: it reads the tick's
// clients and their tank states, and writes only client i's view and sent log.
func (g *game) sendView(i int, sc *snapScratch, tick uint32) {
	p := g.fan.clients[i]
	g.interest.update(int32(i), tick)
	sc.members = sc.members[:0]
	for _, m := range p.view.members {
		sc.members = append(sc.members, g.fan.clients[m])
	}
	sc.left = p.view.leftIDs(sc.left[:0])
	if g.cfg.Lane != wire.LaneDatagram {
		sc.one[0] = p
		g.sendSnapshot(sc, sc.members, sc.one[:], sc.left, tick)
		return
	}
	base, baseline := g.baseline(&p.sent, p, tick)
	rec := p.sent.begin(tick)
	for _, m := range sc.members {
		rec.tanks = append(rec.tanks, m.state)
	}
	g.sendDelta(sc, p, sc.members, sc.left, base, baseline, tick)
}

// baseline returns the snapshot p acknowledged, from log, and its tick, when it is still
// there at server tick tick; nil and 0 otherwise.
func (g *game) baseline(log *sentLog, p *player, tick uint32) (*sentSnapshot, uint32) {
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
func (g *game) sendDelta(sc *snapScratch, p *player, members []*player, left []uint32, base *sentSnapshot, baseline, tick uint32) {
	if chunks, cost := g.encodeDelta(sc, p, members, left, base, baseline, tick); chunks != nil {
		p.peer.sendChunks(chunks)
		g.stats.sentCost(cost)
	}
}

// encodeDelta encodes what sendDelta sends (for p nil: every tank whole, for any client
// without a baseline) and returns the chunks, nil after an error it logged, and their cost.
func (g *game) encodeDelta(sc *snapScratch, p *player, members []*player, left []uint32, base *sentSnapshot, baseline, tick uint32) ([][]byte, snapCost) {
	b := &sc.delta
	b.Reset(wire.Header{Tick: tick, Left: left}, baseline)
	var cost snapCost
	for _, m := range members {
		old, ok := wire.Tank{}, false
		if base != nil && m != p {
			old, ok = base.find(m.tank.ID())
		}
		entry := m.entry
		if m == p {
			entry = m.own
		}
		cost.add(m.moving, b.Add(entry, m.state, old, ok))
	}
	chunks, err := b.Datagrams()
	if err != nil {
		g.log.Error("cannot cut a snapshot into chunks; skipping it", "err", err)
		return nil, snapCost{}
	}
	return chunks, cost
}

// sendSnapshot offers the snapshot of tick of members (in id order), with left as its
// left_view, to every player in to as one stream frame, built in sc. It counts the tank entries sent.
func (g *game) sendSnapshot(sc *snapScratch, members, to []*player, left []uint32, tick uint32) {
	sc.entries = sc.entries[:0]
	var cost snapCost
	for _, p := range members {
		sc.entries = append(sc.entries, p.entry)
		cost.add(p.moving, wire.EntrySize(p.entry))
	}
	g.stats.sentCost(cost.times(len(to)))
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

// encode frames a server message for g's players; see encode.
func (g *game) encode(m wire.ServerMessage) []byte { return encode(g.log, m) }

// encode frames a server message. Everything the server sends is bounded (names and reasons
// by cleanText, snapshots by MaxPlayers), so an error here is a bug in this package: it is
// logged and the message becomes nil, which peers skip, rather than taking the server down.
func encode(log *slog.Logger, m wire.ServerMessage) []byte {
	b, err := transport.AppendFrame(nil, wire.ServerMessageToProto(m))
	if err != nil {
		log.Error("cannot encode server message; dropping it", "kind", fmt.Sprintf("%T", m), "err", err)
		return nil
	}
	return b
}
