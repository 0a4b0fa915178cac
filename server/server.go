package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
)

// Server runs one game. Create it with New, then call Serve once.
type Server struct {
	cfg      Config
	log      *slog.Logger
	stats    counters
	tick     atomic.Uint32 // latest server tick, for Pong
	joins    chan joinRequest
	leaves   chan leaveNote
	observer func(TickRecord)

	liveMu sync.Mutex
	live   map[*session]struct{} // every open connection, for shutdown

	handshaking handshakes                             // connections still waiting for their Hello
	queued      atomic.Int32                           // Hellos waiting for the world to seat them
	traffic     atomic.Pointer[transport.CountingConn] // the socket Serve counts, once it runs
	listener    atomic.Pointer[transport.Listener]     // for its address-validation counters
	drain       drain                                  // see drain.go
	start       time.Time                              // server time 0, set by Serve before anything runs
	heart       heartbeat                              // notices when the process itself was paused (pause.go)
}

type joinRequest struct {
	sess  *session
	hello *tankv1.Hello
	reply chan joinReply
}

type joinReply struct {
	id     uint32
	reject *tankv1.Reject
}

type leaveNote struct {
	id      uint32
	reason  string
	dropped bool // the server's decision (error, timeout), not the client's
}

// New returns a server for cfg, or the reason cfg is invalid.
func New(cfg Config) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Server{
		cfg:    cfg,
		log:    cfg.logger(),
		joins:  make(chan joinRequest),
		leaves: make(chan leaveNote),
		live:   map[*session]struct{}{},

		handshaking: handshakes{max: cfg.MaxHandshakes},
		drain:       newDrain(),
	}, nil
}

// Observe registers f to be called by the world goroutine after every tick with the
// authoritative outcome. It must be called before Serve and f must not block.
func (s *Server) Observe(f func(TickRecord)) { s.observer = f }

// Stats returns the running totals. It is safe to call at any time.
func (s *Server) Stats() Stats {
	st := s.stats.snapshot()
	st.Handshaking = s.handshaking.len()
	if cc := s.traffic.Load(); cc != nil {
		t := cc.Traffic()
		st.BytesIn, st.BytesOut, st.DatagramsIn, st.DatagramsOut = t.BytesIn, t.BytesOut, t.DatagramsIn, t.DatagramsOut
	}
	if ln := s.listener.Load(); ln != nil {
		st.Gate = ln.GateStats()
	}
	return st
}

// Serve runs the game on pc until ctx is done, then tells every client the server is
// shutting down, closes pc and waits for its goroutines. It returns nil after a clean
// shutdown. pc may be a link conditioner wrapping a UDP socket.
func (s *Server) Serve(ctx context.Context, pc net.PacketConn) error {
	cc := transport.NewCountingConn(pc)
	s.traffic.Store(cc)
	ln, err := transport.Listen(cc)
	if err != nil {
		pc.Close()
		return err
	}
	s.listener.Store(ln)
	s.start = time.Now()
	beatDone := make(chan struct{})
	defer close(beatDone)
	go s.heart.run(beatDone)
	s.log.Info("server listening", "addr", pc.LocalAddr().String(), "max_players", s.cfg.MaxPlayers, "contact", s.cfg.Contact, "lane", s.cfg.Lane.String())
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	var conns sync.WaitGroup
	worldDone := make(chan struct{})
	go func() {
		defer close(worldDone)
		s.runWorld(ctx)
	}()
	acceptDone := make(chan error, 1)
	go func() { acceptDone <- s.accept(ctx, ln, &conns) }()

	var aerr error
	select {
	case <-ctx.Done():
	case aerr = <-acceptDone: // the socket failed: shut the game down and say why
		s.log.Error("server cannot accept players any more; stopping", "err", aerr)
		stop()
	}
	<-worldDone        // every player has been kicked with a reason
	ln.StopAccepting() // the socket stays open a little longer for their Disconnects
	if aerr == nil {
		aerr = <-acceptDone
	}
	s.awaitGoodbyes(&conns)
	conns.Wait()
	if err := ln.Close(); aerr == nil && err != nil && !errors.Is(err, net.ErrClosed) {
		aerr = fmt.Errorf("server: close socket: %w", err)
	}
	st := s.Stats()
	s.log.Info("server stopped", "ticks", st.Ticks, "joins", st.Joins, "rejects", st.Rejects,
		"drops", st.Drops, "leaves", st.Leaves, "bad_frames", st.BadFrames, "evicted", st.Evicted)
	return aerr
}

// accept admits connections until the listener closes. It returns nil when that was the
// shutdown, and the error when the socket failed on its own.
func (s *Server) accept(ctx context.Context, ln *transport.Listener, conns *sync.WaitGroup) error {
	for {
		conn, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("server: accept: %w", err)
		}
		sess := newSession(conn, &s.cfg, &s.stats, s.start)
		conn.OnDatagram(sess.onDatagram)
		op := s.open(sess)
		untrack := s.track(sess) // before the goroutine, so shutdown cannot miss it
		conns.Add(1)
		go func() {
			defer conns.Done()
			defer untrack()
			s.handle(ctx, sess, op)
		}()
	}
}

// opening is how a connection began: its first message, read at once when it had fully
// arrived with the session (an honest client's Hello rides in its very first datagram), or
// nil when the handshake must wait for it. heard ends the wait in the handshake cap.
type opening struct {
	first *tankv1.ClientMessage
	err   error
	heard func() bool
}

// open reads a new session's first message if it is already there; otherwise the session
// joins the capped set of silent handshakes, evicting the longest-waiting one if need be.
// Reading here, in the accept loop, means an honest client is never counted as silent, and
// never evicted, however busy the server is.
func (s *Server) open(sess *session) opening {
	m := new(tankv1.ClientMessage)
	if ok, err := sess.conn.TryRecv(m); ok || err != nil {
		return opening{first: m, err: err, heard: func() bool { return true }}
	}
	if old := s.handshaking.admit(sess, time.Now()); old != nil {
		// Too many sessions silent at once: the one that has waited longest goes.
		s.stats.evicted.Add(1)
		s.log.Debug("closing a silent handshake to admit a new one", "addr", old.conn.RemoteAddr().String())
		old.close()
	}
	return opening{heard: func() bool { return s.handshaking.done(sess) }}
}

// runWorld owns the world: it admits joins and leaves between ticks and steps every 50 ms.
func (s *Server) runWorld(ctx context.Context) {
	w := newWorld(&s.cfg, s.log, &s.stats)
	w.setWorkers(snapshotWorkers()) // per-client snapshots off the tick (see fanout.go)
	defer w.settle()
	peers := map[uint32]*session{}
	start := s.start
	ticker := time.NewTicker(tickInterval)
	defer ticker.Stop()
	lastTick := time.Now()
	joins, seated := s.joins, 0     // joins is nil once this tick has seated MaxJoinsPerTick
	drainStarted := s.drain.started // nil once the drain has begun, so it is read once
	draining, drained := false, false
	finishDrain := func() {
		if draining && !drained && len(w.players) == 0 {
			drained = true
			s.log.Info("drained: no player left")
			close(s.drain.done)
		}
	}
	for {
		select {
		case <-drainStarted:
			draining, drainStarted = true, nil
			finishDrain()
		case <-ctx.Done():
			for _, p := range w.players {
				p.peer.kick("server shutting down")
			}
			s.drainJoins()
			return
		case req := <-joins:
			if draining { // it passed the handshake's check just before the drain began
				s.stats.reject(rejectLabel(tankv1.RejectCode_REJECT_CODE_SHUTTING_DOWN))
				req.reply <- joinReply{reject: &tankv1.Reject{Code: tankv1.RejectCode_REJECT_CODE_SHUTTING_DOWN, Reason: drainedReason}}
				continue
			}
			if seated++; seated >= s.cfg.MaxJoinsPerTick {
				joins = nil // the rest wait for the next tick
			}
			p, reject := w.join(time.Since(start), req.hello.GetName(), req.sess)
			if reject != nil {
				s.stats.reject(rejectLabel(reject.GetCode()))
				req.reply <- joinReply{reject: reject}
				continue
			}
			peers[p.id] = req.sess
			req.reply <- joinReply{id: p.id}
		case note := <-s.leaves:
			if _, ok := peers[note.id]; !ok {
				continue
			}
			delete(peers, note.id)
			if note.dropped {
				s.stats.drop(note.reason)
			} else {
				s.stats.leaves.Add(1)
			}
			w.leave(note.id, note.reason)
			finishDrain()
		case <-ticker.C:
			joins, seated = s.joins, 0
			t0 := time.Now()
			w.owe(t0.Sub(lastTick))
			lastTick = t0
			rec := w.step(t0.Sub(start))
			s.stats.tickDuration.observe(time.Since(t0))
			s.tick.Store(rec.Tick)
			for _, id := range rec.Dropped {
				delete(peers, id)
			}
			finishDrain()
			if s.observer != nil {
				rec.Duration = time.Since(t0)
				s.observer(rec)
			}
		}
	}
}

// shutdownGrace is how long kicked players get to receive their Disconnect before every
// remaining connection is closed. It stays well inside the listener's socket linger.
const shutdownGrace = transport.CloseLinger / 2

// awaitGoodbyes gives kicked sessions up to shutdownGrace to send their Disconnect and
// close, then closes whatever is still open (handshakes in progress, stuck writers).
func (s *Server) awaitGoodbyes(conns *sync.WaitGroup) {
	done := make(chan struct{})
	go func() { conns.Wait(); close(done) }()
	timer := time.NewTimer(shutdownGrace)
	defer timer.Stop()
	select {
	case <-done:
		return
	case <-timer.C:
	}
	s.liveMu.Lock()
	for sess := range s.live {
		sess.close()
	}
	s.liveMu.Unlock()
}

// track registers sess as open until the returned func is called.
func (s *Server) track(sess *session) (untrack func()) {
	s.liveMu.Lock()
	s.live[sess] = struct{}{}
	s.liveMu.Unlock()
	return func() {
		s.liveMu.Lock()
		delete(s.live, sess)
		s.liveMu.Unlock()
	}
}

// drainJoins refuses handshakes that raced with shutdown.
func (s *Server) drainJoins() {
	for {
		select {
		case req := <-s.joins:
			s.stats.reject(rejectLabel(tankv1.RejectCode_REJECT_CODE_SHUTTING_DOWN))
			req.reply <- joinReply{reject: &tankv1.Reject{Code: tankv1.RejectCode_REJECT_CODE_SHUTTING_DOWN, Reason: "server shutting down"}}
		default:
			return
		}
	}
}

// tickInterval is the server's simulation and snapshot period.
const tickInterval = 50 * time.Millisecond

// readErrorReason turns a failed read into a drop reason and whether it was the client's
// fault (a protocol error) rather than a vanished or closed connection.
func readErrorReason(err error, idle time.Duration) (reason string, protocol bool) {
	switch {
	case transport.IsTimeout(err):
		return dropTimeout.reason(fmt.Sprintf("nothing received for %v", idle)), false
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrClosedPipe), errors.Is(err, net.ErrClosed):
		return "connection closed", false
	default:
		return dropProtocol.reason(err.Error()), true
	}
}

// Arena returns the arena the server plays in.
func (s *Server) Arena() netcode.Arena { return s.cfg.Arena }
