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
	"tanknet/transport"
	"tanknet/wire"
)

// Server runs the game's rooms (see rooms.go) on one socket. Create it with New, then call
// Serve once.
type Server struct {
	cfg      Config
	log      *slog.Logger
	stats    counters
	rooms    roomSet
	ids      atomic.Uint32 // the last player id given, in any room
	observer func(TickRecord)

	liveMu sync.Mutex
	live   map[*session]struct{} // every open connection, for shutdown

	handshaking handshakes                         // connections still waiting for their Hello
	queued      atomic.Int32                       // Hellos waiting for the world to seat them
	listener    atomic.Pointer[transport.Listener] // for its address-validation counters
	drain       drain                              // see drain.go
	clock       *serverClock                       // game time; server time 0 is set by Serve before anything runs (clockrate.go)
	heart       heartbeat                          // notices when the process itself was paused (pause.go)
}

type joinRequest struct {
	sess  *session
	hello wire.Hello
	reply chan joinReply
}

type joinReply struct {
	id     uint32
	reject *wire.Reject
}

// leaveNote tells the room a session ended: the client left (left says how), or the
// server dropped it (drop says why).
type leaveNote struct {
	id   uint32
	left string
	drop dropReason
}

// New returns a server for cfg, or the reason cfg is invalid.
func New(cfg Config) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Server{
		cfg:  cfg,
		log:  cfg.logger(),
		live: map[*session]struct{}{},

		handshaking: handshakes{max: cfg.MaxHandshakes},
		drain:       newDrain(),
		clock:       newServerClock(time.Now()),
	}, nil
}

// Observe registers f to be called after every tick of every room with the authoritative
// outcome (TickRecord.Room says which). Each room calls it from its own goroutine, so calls
// for different rooms may run at once. It must be called before Serve and f must not block.
func (s *Server) Observe(f func(TickRecord)) { s.observer = f }

// Stats returns the running totals. It is safe to call at any time.
func (s *Server) Stats() Stats {
	st := s.stats.snapshot()
	st.Handshaking = s.handshaking.len()
	st.Rooms = s.roomStats()
	if ln := s.listener.Load(); ln != nil {
		t := ln.Traffic()
		st.BytesIn, st.BytesOut, st.DatagramsIn, st.DatagramsOut = t.BytesIn, t.BytesOut, t.DatagramsIn, t.DatagramsOut
		st.Gate = ln.GateStats()
	}
	return st
}

// Serve runs the game on pc until ctx is done, then tells every client the server is
// shutting down, closes pc and waits for its goroutines. It returns nil after a clean
// shutdown. pc may be a link conditioner wrapping a UDP socket.
func (s *Server) Serve(ctx context.Context, pc net.PacketConn) error {
	ln, err := transport.Listen(pc, transport.ListenConfig{ChallengesPerSecond: s.cfg.ChallengesPerSecond, AnswerOldClient: wire.OldClientReject})
	if err != nil {
		pc.Close()
		return err
	}
	s.listener.Store(ln)
	s.clock.begin(time.Now())
	beatDone := make(chan struct{})
	defer close(beatDone)
	go s.heart.run(beatDone)
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	var conns sync.WaitGroup
	s.rooms.mu.Lock()
	go s.runRoom(ctx, s.openRoom(DefaultRoom)) // open from the start, as a one-match server's world was
	s.rooms.mu.Unlock()
	// Said once the default room is open: its counts and metrics are there from now on.
	s.log.Info("server listening", "addr", pc.LocalAddr().String(), "max_players", s.cfg.MaxPlayers, "max_rooms", s.cfg.MaxRooms, "contact", s.cfg.Rules.Contact.String(), "lane", s.cfg.Lane.String())
	acceptDone := make(chan error, 1)
	go func() { acceptDone <- s.accept(ctx, ln, &conns) }()

	var aerr error
	select {
	case <-ctx.Done():
	case aerr = <-acceptDone: // the socket failed: shut the game down and say why
		s.log.Error("server cannot accept players any more; stopping", "err", aerr)
		stop()
	}
	s.stopRooms()
	s.rooms.running.Wait() // every player has been kicked with a reason
	ln.StopAccepting()     // the socket stays open a little longer for their Disconnects
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
		sess := newSession(conn, &s.cfg, &s.stats, s.clock)
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
	first *wire.FromClient
	err   error
	heard func() bool
}

// open reads a new session's first message if it is already there; otherwise the session
// joins the capped set of silent handshakes, evicting the longest-waiting one if need be.
// Reading here, in the accept loop, means an honest client is never counted as silent, and
// never evicted, however busy the server is.
func (s *Server) open(sess *session) opening {
	m := new(wire.FromClient)
	if ok, err := sess.conn.TryRecv(m.Target()); ok || err != nil {
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

// tickInterval is the server's simulation and snapshot period.
const tickInterval = 50 * time.Millisecond

// closedReason is how a client that closed its connection left.
const closedReason = "connection closed"

// readError turns a failed read into a drop reason (a timeout, or a protocol error that is
// the client's fault), or no drop (the zero dropReason) when the connection was closed.
func readError(err error, idle time.Duration) dropReason {
	switch {
	case transport.IsTimeout(err):
		return dropTimeout.reason(fmt.Sprintf("nothing received for %v", idle))
	case connectionClosed(err):
		return dropReason{}
	default:
		return dropProtocol.reason(err.Error())
	}
}

// connectionClosed reports whether err says the connection was closed under a read or a
// write (by the server, or by the transport when the client's address started a new
// conversation), rather than anything the client did.
func connectionClosed(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) || errors.Is(err, net.ErrClosed)
}

// Arena returns the arena the server plays in.
func (s *Server) Arena() netcode.Arena { return s.cfg.Arena }
