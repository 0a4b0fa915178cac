package client

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
)

// maxQueued bounds the received messages waiting for Update: 4 s of snapshots. Beyond it the
// reader gives up on the consumer and closes the session.
const maxQueued = 80

// RejectedError is a server's refusal of the handshake.
type RejectedError struct {
	Code   tankv1.RejectCode
	Reason string
}

// Error says the server refused us, with its reason and code.
func (e *RejectedError) Error() string {
	return fmt.Sprintf("client: server rejected us: %s (%s)", e.Reason, e.Code)
}

// DisconnectedError says the server dropped us mid-game, and why.
type DisconnectedError struct{ Reason string }

// Error says the server dropped us, with its reason.
func (e *DisconnectedError) Error() string {
	return "client: server disconnected us: " + e.Reason
}

// Welcome is what the server told us on joining.
type Welcome struct {
	PlayerID     uint32
	Arena        netcode.Arena
	Rules        netcode.Rules // combat rules: the cannon, health, respawn, rewind window
	ServerTick   uint32
	MaxInputLead uint32
}

// Received is one server message and when it arrived (local wall clock).
type Received struct {
	At  time.Time
	Msg *tankv1.ServerMessage
}

// Session is one connection to a server. Create it with Dial; call Run in its own goroutine;
// take received messages with Drain; send with SendInput and Ping. Close ends it.
type Session struct {
	conn    *transport.Conn
	welcome Welcome

	mu     sync.Mutex
	queue  []Received
	err    error // why Run ended; nil while running
	closed bool
}

// Dial connects to addr over pc (nil: a new UDP socket), says hello as name and waits up to
// timeout for Welcome. It returns a *RejectedError if the server refuses us, and a plain
// error if nothing answers in time.
func Dial(ctx context.Context, addr, name string, pc net.PacketConn, timeout time.Duration) (*Session, error) {
	conn, err := transport.Dial(addr, pc)
	if err != nil {
		return nil, err
	}
	s := &Session{conn: conn}
	if err := s.handshake(ctx, name, timeout); err != nil {
		conn.Close()
		return nil, err
	}
	return s, nil
}

func (s *Session) handshake(ctx context.Context, name string, timeout time.Duration) error {
	hello := &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Hello{Hello: &tankv1.Hello{ProtocolVersion: transport.ProtocolVersion, Name: name}}}
	if err := s.conn.Send(hello); err != nil {
		return fmt.Errorf("client: send hello: %w", err)
	}
	if d, ok := ctx.Deadline(); ok && time.Until(d) < timeout {
		timeout = time.Until(d)
	}
	var m tankv1.ServerMessage
	if err := s.conn.Recv(&m, timeout); err != nil {
		if transport.IsTimeout(err) {
			return fmt.Errorf("client: no answer from %s within %v (is a tankserver running there?)", s.conn.RemoteAddr(), timeout)
		}
		return fmt.Errorf("client: handshake with %s: %w", s.conn.RemoteAddr(), err)
	}
	switch k := m.GetKind().(type) {
	case *tankv1.ServerMessage_Welcome:
		arena, err := transport.ArenaFromProto(k.Welcome.GetArena())
		if err != nil {
			return fmt.Errorf("client: welcome: %w", err)
		}
		rules, err := transport.RulesFromProto(k.Welcome.GetRules())
		if err != nil {
			return fmt.Errorf("client: welcome: %w", err)
		}
		s.welcome = Welcome{PlayerID: k.Welcome.GetPlayerId(), Arena: arena, Rules: rules,
			ServerTick: k.Welcome.GetServerTick(), MaxInputLead: k.Welcome.GetMaxInputLead()}
		if s.welcome.PlayerID == 0 {
			return errors.New("client: welcome: player id 0")
		}
		return nil
	case *tankv1.ServerMessage_Reject:
		return &RejectedError{Code: k.Reject.GetCode(), Reason: k.Reject.GetReason()}
	default:
		return fmt.Errorf("client: expected Welcome, got %T", m.GetKind())
	}
}

// Welcome returns what the server said when we joined.
func (s *Session) Welcome() Welcome { return s.welcome }

// Run reads server messages into the queue until the connection ends, and returns why: a
// *DisconnectedError when the server dropped us, nil after Close. Call it once.
func (s *Session) Run() error {
	for {
		m := new(tankv1.ServerMessage)
		err := s.conn.Recv(m, transport.IdleTimeout)
		if err == nil {
			if d := m.GetDisconnect(); d != nil {
				err = &DisconnectedError{Reason: d.GetReason()}
			} else if s.push(Received{At: time.Now(), Msg: m}) {
				continue
			} else {
				err = errors.New("client: messages not consumed; giving up")
			}
		} else if transport.IsTimeout(err) {
			err = fmt.Errorf("client: lost the server: nothing received for %v", transport.IdleTimeout)
		}
		s.mu.Lock()
		if s.closed {
			err = nil
		}
		s.err = err
		s.mu.Unlock()
		s.conn.Close()
		return err
	}
}

func (s *Session) push(r Received) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.queue) >= maxQueued {
		return false
	}
	s.queue = append(s.queue, r)
	return true
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

// SendInput sends one prediction step as a MoveInput.
func (s *Session) SendInput(p netcode.PendingInput) error {
	return s.conn.Send(&tankv1.ClientMessage{Kind: &tankv1.ClientMessage_MoveInput{MoveInput: transport.MoveToProto(p)}})
}

// Ping sends a latency probe stamped with t (microseconds, any epoch); the Pong echoes it.
func (s *Session) Ping(t uint64) error {
	return s.conn.Send(&tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Ping{Ping: &tankv1.Ping{ClientTimeUs: t}}})
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
		_ = s.conn.Send(&tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Goodbye{Goodbye: &tankv1.Goodbye{Reason: reason}}})
	}
	return s.conn.Close()
}
