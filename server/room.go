package server

import (
	"context"
	"runtime"
	"time"

	"tanknet/wire"
)

// runRoom owns room r's game: it admits joins and leaves between ticks and steps every
// 50 ms, until the server stops or the room closes (empty for Config.RoomGrace, or at once
// in a drain; the default room closes only in a drain).
func (s *Server) runRoom(ctx context.Context, r *room) {
	defer s.rooms.running.Done()
	defer close(r.done)
	l := s.newRoomLoop(r)
	defer l.g.settle()
	defer l.ticker.Stop()
	for {
		var closed bool
		select {
		case <-l.drainStarted:
			l.draining, l.drainStarted = true, nil
			closed = l.closing(time.Now())
		case <-ctx.Done():
			l.shutdown()
			return
		case req := <-l.joins:
			l.join(req)
		case note := <-r.leaves:
			closed = l.leave(note)
		case <-l.ticker.C:
			closed = l.tick()
		}
		if closed {
			return
		}
	}
}

// roomLoop is what runRoom keeps between the events it takes: the room's game, the
// sessions of its players, its ticker and where the room stands on closing.
type roomLoop struct {
	s        *Server
	r        *room
	g        *game
	peers    map[uint32]*session
	every    time.Duration // the ticker's period: 50 ms of game time (clockrate.go)
	ticker   *time.Ticker
	lastTick time.Time
	joins    <-chan joinRequest // r.joins; nil once this tick has seated MaxJoinsPerTick
	seated   int                // joins seated this tick
	// drainStarted is nil once the drain has begun, so it is read once.
	drainStarted <-chan struct{}
	draining     bool
	emptySince   time.Time // when the room was last seen empty; zero while it has players
}

// newRoomLoop makes room r's game and starts its ticker.
func (s *Server) newRoomLoop(r *room) *roomLoop {
	g := newGame(&s.cfg, s.log, &s.stats)
	g.room, g.idSource = r.name, &s.ids
	g.countBuffer(r.input)
	if r.name != DefaultRoom {
		g.log = s.log.With("room", r.name)
	}
	g.setWorkers(snapshotWorkers()) // per-client snapshots off the tick (see fanout.go)
	every := s.clock.tickEvery()
	return &roomLoop{s: s, r: r, g: g, peers: map[uint32]*session{}, every: every, ticker: time.NewTicker(every),
		lastTick: s.clock.now(), joins: r.joins, drainStarted: s.drain.started}
}

// closing reports whether the room may close now, and takes it out of the open rooms if so.
func (l *roomLoop) closing(now time.Time) bool {
	if len(l.g.world.Tanks()) > 0 {
		l.emptySince = time.Time{}
		return false
	}
	if l.emptySince.IsZero() {
		l.emptySince = now
	}
	due := l.draining || l.r.name != DefaultRoom && now.Sub(l.emptySince) >= l.s.cfg.RoomGrace
	if !due || !l.s.closeRoom(l.r) {
		return false
	}
	if l.r.name != DefaultRoom || l.draining {
		l.g.log.Info("room closed: no player left", "room", l.r.name)
	}
	return true
}

// shutdown drops every player and refuses the joins waiting: the server stops.
func (l *roomLoop) shutdown() {
	for _, p := range l.g.players() {
		p.peer.kick(dropShutdown.reason(""))
	}
	l.s.refuseJoins(l.r)
}

// join seats req's player, or refuses it.
func (l *roomLoop) join(req joinRequest) {
	s := l.s
	if l.draining { // it passed the handshake's check just before the drain began
		s.stats.reject(wire.RejectShuttingDown.String())
		req.reply <- joinReply{reject: &wire.Reject{Code: wire.RejectShuttingDown, Reason: drainedReason}}
		return
	}
	if l.seated++; l.seated >= s.cfg.MaxJoinsPerTick {
		l.joins = nil // the rest wait for the next tick
	}
	p, reject := l.g.join(s.clock.since(), req.hello.Name, req.sess)
	if reject != nil {
		s.stats.reject(reject.Code.String())
		req.reply <- joinReply{reject: reject}
		return
	}
	l.peers[p.tank.ID()] = req.sess
	l.r.players.Store(int32(len(l.g.world.Tanks())))
	req.reply <- joinReply{id: p.tank.ID()}
}

// leave takes a player out, dropped or parting; it reports whether the room closed.
func (l *roomLoop) leave(note leaveNote) bool {
	if _, ok := l.peers[note.id]; !ok {
		return false
	}
	delete(l.peers, note.id)
	if note.drop.dropping() {
		l.s.stats.drop(note.drop)
		l.g.leave(note.id, note.drop.String())
	} else {
		l.s.stats.leaves.Add(1)
		l.g.part(note.id, note.left) // its last inputs first
	}
	l.r.players.Store(int32(len(l.g.world.Tanks())))
	return l.draining && l.closing(time.Now())
}

// tick steps the game once and tells the room's observers; it reports whether the room
// closed.
func (l *roomLoop) tick() bool {
	s, r, g := l.s, l.r, l.g
	l.joins, l.seated = r.joins, 0
	if e := s.clock.tickEvery(); e != l.every { // the clock's rate changed
		l.every = e
		l.ticker.Reset(e)
	}
	holdWakes(l.peers)
	clock := startTick()
	t0, now := clock.wall0, s.clock.now()
	g.world.Owe(now.Sub(l.lastTick), s.cfg.IdleTimeout)
	l.lastTick = now
	r.takeContact(g)
	rec := g.step(s.clock.since())
	l.observe(clock.stop())
	handoff := time.Now()
	releaseWakes(l.peers) // before a dropped peer leaves the map: its goodbye must go
	r.tick.Store(rec.Tick)
	for _, id := range rec.Dropped {
		delete(l.peers, id)
	}
	r.players.Store(int32(len(g.world.Tanks())))
	if s.observer != nil {
		rec.Duration = time.Since(t0)
		s.observer(rec)
	}
	if l.closing(t0) {
		return true
	}
	yieldToWriters(l.peers)
	s.stats.tickHandoff.observe(time.Since(handoff))
	return false
}

// observe counts one tick's own wall time and, when known, its CPU time.
func (l *roomLoop) observe(wall, cpu time.Duration, cpuOK bool) {
	l.s.stats.tickDuration.observe(wall)
	l.r.ticks.observe(wall)
	if cpuOK {
		l.s.stats.tickCPU.observe(cpu)
		l.r.ticksCPU.observe(cpu)
	}
}

// holdWakes has every peer's session keep the wakes of its writer until releaseWakes: a
// writer woken in the middle of a tick runs beside it (on a second core, or by taking the
// tick's own) and contends with it for the core and the outbox lock while the tick still
// hands the other players their snapshots. Waking them all at once after the tick's work
// keeps that work's wall time close to its CPU time.
func holdWakes(peers map[uint32]*session) {
	for _, s := range peers {
		s.holdWake()
	}
}

// releaseWakes wakes the writers whose wake holdWakes held back.
func releaseWakes(peers map[uint32]*session) {
	for _, s := range peers {
		s.releaseWake()
	}
}

// refuseJoins refuses the handshakes waiting for room r when the server stops.
func (s *Server) refuseJoins(r *room) {
	for {
		select {
		case req := <-r.joins:
			s.stats.reject(wire.RejectShuttingDown.String())
			req.reply <- joinReply{reject: &wire.Reject{Code: wire.RejectShuttingDown, Reason: "server shutting down"}}
		default:
			return
		}
	}
}

// writerYields bounds how often a room yields after a tick for its session writers: enough
// for every writer the tick woke to run on one thread, few enough to cost nothing when a
// writer is stuck on a slow client.
const writerYields = 4

// yieldToWriters lets the session writers a tick woke take its snapshots before the next
// tick can replace them (a session keeps only the newest, PROTOCOL.md §5): on one thread
// (GOMAXPROCS 1, as in a browser tab) a ticker that fell behind would otherwise run two
// ticks back to back and the first one's snapshots would never leave. On several cores the
// writers run beside the room and this seldom yields at all.
func yieldToWriters(peers map[uint32]*session) {
	for range writerYields {
		unsent := false
		for _, s := range peers {
			if s.snapshotUnsent() {
				unsent = true
				break
			}
		}
		if !unsent {
			return
		}
		runtime.Gosched()
	}
}
