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
	g := newGame(&s.cfg, s.log, &s.stats)
	g.room, g.idSource = r.name, &s.ids
	g.countBuffer(r.input)
	if r.name != DefaultRoom {
		g.log = s.log.With("room", r.name)
	}
	g.setWorkers(snapshotWorkers()) // per-client snapshots off the tick (see fanout.go)
	defer g.settle()
	peers := map[uint32]*session{}
	every := s.clock.tickEvery() // 50 ms of game time (clockrate.go)
	ticker := time.NewTicker(every)
	defer ticker.Stop()
	lastTick := s.clock.now()
	joins, seated := r.joins, 0     // joins is nil once this tick has seated MaxJoinsPerTick
	drainStarted := s.drain.started // nil once the drain has begun, so it is read once
	draining := false
	var emptySince time.Time // when the room was last seen empty; zero while it has players
	// closing reports whether the room may close now, and takes it out of the open rooms if so.
	closing := func(now time.Time) bool {
		if len(g.world.Tanks()) > 0 {
			emptySince = time.Time{}
			return false
		}
		if emptySince.IsZero() {
			emptySince = now
		}
		due := draining || r.name != DefaultRoom && now.Sub(emptySince) >= s.cfg.RoomGrace
		if !due || !s.closeRoom(r) {
			return false
		}
		if r.name != DefaultRoom || draining {
			g.log.Info("room closed: no player left", "room", r.name)
		}
		return true
	}
	for {
		select {
		case <-drainStarted:
			draining, drainStarted = true, nil
			if closing(time.Now()) {
				return
			}
		case <-ctx.Done():
			for _, p := range g.players() {
				p.peer.kick(dropShutdown.reason(""))
			}
			s.refuseJoins(r)
			return
		case req := <-joins:
			if draining { // it passed the handshake's check just before the drain began
				s.stats.reject(wire.RejectShuttingDown.String())
				req.reply <- joinReply{reject: &wire.Reject{Code: wire.RejectShuttingDown, Reason: drainedReason}}
				continue
			}
			if seated++; seated >= s.cfg.MaxJoinsPerTick {
				joins = nil // the rest wait for the next tick
			}
			p, reject := g.join(s.clock.since(), req.hello.Name, req.sess)
			if reject != nil {
				s.stats.reject(reject.Code.String())
				req.reply <- joinReply{reject: reject}
				continue
			}
			peers[p.tank.ID()] = req.sess
			r.players.Store(int32(len(g.world.Tanks())))
			req.reply <- joinReply{id: p.tank.ID()}
		case note := <-r.leaves:
			if _, ok := peers[note.id]; !ok {
				continue
			}
			delete(peers, note.id)
			if note.drop.dropping() {
				s.stats.drop(note.drop)
				g.leave(note.id, note.drop.String())
			} else {
				s.stats.leaves.Add(1)
				g.part(note.id, note.left) // its last inputs first
			}
			r.players.Store(int32(len(g.world.Tanks())))
			if draining && closing(time.Now()) {
				return
			}
		case <-ticker.C:
			joins, seated = r.joins, 0
			if e := s.clock.tickEvery(); e != every { // the clock's rate changed
				every = e
				ticker.Reset(every)
			}
			t0, now := time.Now(), s.clock.now()
			g.world.Owe(now.Sub(lastTick), s.cfg.IdleTimeout)
			lastTick = now
			r.takeContact(g)
			rec := g.step(s.clock.since())
			took := time.Since(t0)
			s.stats.tickDuration.observe(took)
			r.ticks.observe(took)
			r.tick.Store(rec.Tick)
			for _, id := range rec.Dropped {
				delete(peers, id)
			}
			r.players.Store(int32(len(g.world.Tanks())))
			if s.observer != nil {
				rec.Duration = time.Since(t0)
				s.observer(rec)
			}
			if closing(t0) {
				return
			}
			yieldToWriters(peers)
		}
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
