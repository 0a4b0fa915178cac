package client

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"tanknet/transport"
	"tanknet/wire"
)

// maxQueued bounds the received messages waiting for Update: 4 s of snapshots. Beyond it the
// reader makes room by dropping the oldest queued snapshot (a newer one supersedes it), so a
// consumer that stalls under load loses old snapshots, counted, not the session.
const maxQueued = 80

// RejectedError is a server's refusal of the handshake.
type RejectedError struct {
	Code   wire.RejectCode
	Reason string
}

// Error says the server refused us, with its reason and code.
func (e *RejectedError) Error() string {
	return fmt.Sprintf("client: server rejected us: %s (%s)", e.Reason, e.Code)
}

// DisconnectedError says the server dropped us mid-game, and why: Code to switch on
// (wire.DisconnectUnspecified from a server that sends none), Reason for people.
type DisconnectedError struct {
	Code   wire.DisconnectCode
	Reason string
}

// Error says the server dropped us, with its reason.
func (e *DisconnectedError) Error() string {
	return "client: server disconnected us: " + e.Reason
}

// Received is one server message, decoded by package wire, and when it arrived (local wall
// clock).
type Received struct {
	At  time.Time
	Msg wire.ServerMessage
	// Datagram is true for a snapshot chunk from the datagram lane, false for a stream
	// message.
	Datagram bool
}

// Session is one connection to a server. Create it with Dial; call Run in its own goroutine;
// take received messages with Drain; send with Send. Close ends it.
type Session struct {
	conn    *transport.Conn
	welcome wire.Welcome

	mu     sync.Mutex
	queue  []Received
	err    error // why Run ended; nil while running
	closed bool
	// arrived is signalled, without blocking, whenever a message is queued or Run ends
	// (Arrived): a Runner wakes on it.
	arrived chan struct{}

	badDatagrams     atomic.Uint64     // undecodable, not a chunk, or a chunk breaking the rules
	droppedDatagrams atomic.Uint64     // good chunks the full queue had no room for
	droppedStale     atomic.Uint64     // old snapshots dropped to make room in a full queue
	newestTick       atomic.Uint32     // newest snapshot tick taken, to refuse far-future ones
	batch            wire.BatchEncoder // the InputBatch datagram's reused message and buffer (Send)
	away             sessionAway       // our Aways, which excuse a silence of the server's (away.go)
}

// Dial connects to addr over pc (nil: a new UDP socket), says hello as name and waits up to
// timeout for Welcome, in the server's default room. It returns a *RejectedError if the
// server refuses us, and a plain error if nothing answers in time.
func Dial(ctx context.Context, addr, name string, pc net.PacketConn, timeout time.Duration) (*Session, error) {
	return DialRoom(ctx, addr, name, "", pc, timeout)
}

// DialRoom is Dial into room ("" for the server's default room; the server opens a room
// that is not open yet if it may).
func DialRoom(ctx context.Context, addr, name, room string, pc net.PacketConn, timeout time.Duration) (*Session, error) {
	conn, w, err := join(ctx, addr, name, room, pc, timeout)
	if err != nil {
		return nil, err
	}
	s := &Session{conn: conn, welcome: w, arrived: make(chan struct{}, 1)}
	s.newestTick.Store(w.ServerTick)
	if w.Lane == wire.LaneDatagram {
		conn.OnDatagram(s.onDatagram)
	}
	return s, nil
}

// join connects to addr over pc (nil: a new UDP socket), says hello as name into room and
// returns the connection and the server's Welcome; nothing reads the connection yet. It
// returns a *RejectedError if the server refuses us, and a plain error if nothing answers
// in time.
func join(ctx context.Context, addr, name, room string, pc net.PacketConn, timeout time.Duration) (*transport.Conn, wire.Welcome, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout) // one deadline for both handshakes
	defer cancel()
	conn, err := transport.DialContext(ctx, addr, pc)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, wire.Welcome{}, fmt.Errorf("client: no answer from %s within %v (is a tankserver running there?): %w", addr, timeout, err)
		}
		return nil, wire.Welcome{}, err
	}
	w, err := handshake(ctx, conn, name, room, timeout)
	if err != nil {
		conn.Close()
		return nil, wire.Welcome{}, err
	}
	return conn, w, nil
}

// handshake sends Hello on conn and waits for the server's Welcome.
func handshake(ctx context.Context, conn *transport.Conn, name, room string, timeout time.Duration) (wire.Welcome, error) {
	if err := conn.Send(wire.ClientMessageToProto(wire.Hello{ProtocolVersion: transport.ProtocolVersion, Name: name, Room: room})); err != nil {
		return wire.Welcome{}, fmt.Errorf("client: send hello: %w", err)
	}
	if d, ok := ctx.Deadline(); ok && time.Until(d) < timeout {
		timeout = time.Until(d)
	}
	var in wire.FromServer
	if err := conn.Recv(in.Target(), timeout); err != nil {
		if transport.IsTimeout(err) {
			return wire.Welcome{}, fmt.Errorf("client: no answer from %s within %v (is a tankserver running there?)", conn.RemoteAddr(), timeout)
		}
		return wire.Welcome{}, fmt.Errorf("client: handshake with %s: %w", conn.RemoteAddr(), err)
	}
	m, err := in.Decode()
	if err != nil {
		return wire.Welcome{}, fmt.Errorf("client: welcome: %w", err)
	}
	switch m := m.(type) {
	case wire.Welcome:
		return m, nil
	case wire.Reject:
		return wire.Welcome{}, &RejectedError{Code: m.Code, Reason: m.Reason}
	default:
		return wire.Welcome{}, fmt.Errorf("client: expected Welcome, got %T", m)
	}
}

// ServerGone is how long the server may stay silent before a client gives up on it: three
// times the server's own idle timeout, because a server can be stopped for several seconds
// and come back (a suspended laptop hosting a LAN game, a virtual machine migrating) with
// every client's packets waiting in its socket, and it then drops no one.
const ServerGone = 3 * transport.IdleTimeout

// Welcome returns what the server said when we joined.
func (s *Session) Welcome() wire.Welcome { return s.welcome }

// Run reads server messages into the queue until the connection ends, and returns why: a
// *DisconnectedError when the server dropped us, nil after Close. A message that fails
// package wire's checks ends the session too. Call it once.
func (s *Session) Run() error {
	var in wire.FromServer
	wait := transport.IdleTimeout
	for {
		err := s.conn.Recv(in.Target(), wait)
		wait = transport.IdleTimeout
		if err == nil {
			var m wire.ServerMessage
			m, err = in.Decode()
			switch d, isDisconnect := m.(wire.Disconnect); {
			case err != nil:
				err = fmt.Errorf("client: bad message from the server: %w", err)
			case isDisconnect:
				err = &DisconnectedError{Code: d.Code, Reason: d.Reason}
			case m == nil:
				continue // a kind this version does not know
			case s.push(Received{At: time.Now(), Msg: m}):
				continue
			default:
				err = errors.New("client: the window took no messages while 80 that are not snapshots queued up; giving up")
			}
		} else if transport.IsTimeout(err) {
			now := time.Now()
			if silent := s.conn.SilentFor(); silent < ServerGone || s.awayGrace(now) {
				// The server's packets arrive (the stream is stalled behind a loss), or it is
				// paused: wake again as ServerGone of silence is reached, or as the grace after
				// coming back ends, not up to a wait later.
				wait = transport.WaitWithin(wait, ServerGone, silent)
				if since, ok := s.sinceBack(now); ok {
					wait = transport.WaitWithin(wait, ServerGone, since)
				}
				continue
			}
			err = fmt.Errorf("client: lost the server: nothing received for %v", ServerGone)
		}
		s.mu.Lock()
		if s.closed {
			err = nil
		}
		s.err = err
		s.mu.Unlock()
		s.signal() // a Runner's next Update finds the session's end
		s.conn.Close()
		return err
	}
}

// onDatagram takes one datagram from the server. It runs on the connection's receive
// goroutine: it decodes and checks the chunk (wire.ReceiveChunk) and queues it, dropping and
// counting anything else; it never blocks or panics whatever the bytes are.
func (s *Session) onDatagram(b []byte) {
	snap, err := wire.ReceiveChunk(b, s.newestTick.Load())
	if err != nil {
		s.badDatagrams.Add(1)
		return
	}
	if snap.Tick > s.newestTick.Load() {
		s.newestTick.Store(snap.Tick) // only this goroutine stores after the handshake
	}
	if !s.push(Received{At: time.Now(), Msg: snap, Datagram: true}) {
		s.droppedDatagrams.Add(1)
	}
}

// DatagramStats returns how many datagrams were bad (dropped as malformed or out of
// bounds) and how many good ones were dropped because the queue was full.
func (s *Session) DatagramStats() (bad, dropped uint64) {
	return s.badDatagrams.Load(), s.droppedDatagrams.Load()
}

// StaleDropped returns how many queued snapshots were dropped, oldest first, to make room
// for newer messages because the consumer fell behind.
func (s *Session) StaleDropped() uint64 { return s.droppedStale.Load() }

// push queues r. Chunks may fill only half the queue: beyond that a chunk is refused
// (counted by the caller), so chunks never crowd out stream messages. A stream message that
// finds the queue full makes room by dropping the oldest queued snapshot; push refuses it
// only when nothing in the queue is a snapshot.
func (s *Session) push(r Received) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.Datagram {
		if len(s.queue) >= maxQueued/2 {
			return false
		}
	} else if len(s.queue) >= maxQueued && !s.dropOldestSnapshot() {
		return false
	}
	s.queue = append(s.queue, r)
	s.signal()
	return true
}

// signal tells a waiting Runner that something arrived; one pending signal stands for any
// number of arrivals.
func (s *Session) signal() {
	select {
	case s.arrived <- struct{}{}:
	default:
	}
}

// Arrived returns a channel that is signalled whenever a message is queued for Drain or the
// session ends (nil for a Session that was not dialled, which never signals).
func (s *Session) Arrived() <-chan struct{} { return s.arrived }

// dropOldestSnapshot removes the oldest snapshot (stream or chunk) from the queue and reports
// whether there was one. The caller holds s.mu.
func (s *Session) dropOldestSnapshot() bool {
	for i, q := range s.queue {
		if _, ok := q.Msg.(*wire.Snapshot); ok {
			copy(s.queue[i:], s.queue[i+1:])
			s.queue[len(s.queue)-1] = Received{}
			s.queue = s.queue[:len(s.queue)-1]
			s.droppedStale.Add(1)
			return true
		}
	}
	return false
}

// Drain appends the messages received since the last call to dst, oldest first, and returns
// it with the error that ended Run, if it has ended.
func (s *Session) Drain(dst []Received) ([]Received, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	dst = append(dst, s.queue...)
	clear(s.queue)
	s.queue = s.queue[:0]
	return dst, s.err
}

// Send sends m: an InputBatch as one datagram (datagram lane only), and every other message
// on the reliable stream, in order (so a shot's Fire goes after the Move it belongs to). A
// datagram that cannot leave is lost like any other, so for it only a closed session is an
// error.
func (s *Session) Send(m wire.GameMessage) error {
	s.noteAway(m, time.Now())
	batch, isBatch := m.(wire.InputBatch)
	if !isBatch {
		return s.sendErr(s.conn.Send(wire.ClientMessageToProto(m)))
	}
	b, err := s.batch.Encode(batch.Inputs, batch.AckTick, batch.AckMask)
	if err != nil {
		return err
	}
	if err := s.conn.SendDatagram(b); err != nil && !errors.Is(err, transport.ErrDatagramTooLarge) {
		return s.sendErr(err)
	}
	return nil
}

// sendErr returns why a send failed: the session's end when it has ended, or err. Run
// records the end before it closes the connection, so a send that races a Disconnect
// reports the server's reason, not the closed connection it wrote to.
func (s *Session) sendErr(err error) error {
	if err == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	return err
}

// SmoothedRTT is KCP's own round-trip estimate.
func (s *Session) SmoothedRTT() time.Duration { return s.conn.SmoothedRTT() }

// Close says goodbye with reason and closes the connection. Safe to call more than once.
func (s *Session) Close(reason string) error {
	s.mu.Lock()
	already := s.closed
	s.closed = true
	s.mu.Unlock()
	if !already {
		_ = s.conn.Send(wire.ClientMessageToProto(wire.Goodbye{Reason: reason}))
	}
	return s.conn.Close()
}
