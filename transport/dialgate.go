package transport

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// Connect retries: a ConnectRequest or its Challenge may be lost, so the client asks again,
// waiting longer each time (a slow link's round trip can exceed a second).
const (
	connectRetryFirst = 250 * time.Millisecond
	connectRetryMax   = time.Second
)

// ErrVersionMismatch reports a server that speaks another protocol version.
var ErrVersionMismatch = errors.New("transport: server speaks another protocol version")

// dialGate is the client's side of address validation: a net.PacketConn under kcp-go that,
// until the server has shown it admitted us, wraps every datagram kcp-go sends in a
// ConnectResponse carrying our cookie, and keeps handshake datagrams away from kcp-go.
type dialGate struct {
	net.PacketConn // the socket below: its Close, LocalAddr and deadlines are ours
	server         net.Addr

	mu     sync.Mutex
	cookie cookie
	heard  atomic.Int64 // Unix nanoseconds of the last datagram from the server; 0: not admitted yet
	conv   uint32       // our KCP conversation
}

// admitted reports whether the server has shown it admitted us: a datagram of our own
// conversation came from it.
func (g *dialGate) admitted() bool { return g.heard.Load() != 0 }

// fetchCookie sends ConnectRequests to server over pc until a Challenge comes back or ctx
// ends, and returns its cookie. pc's read deadline is cleared afterwards.
func fetchCookie(ctx context.Context, pc net.PacketConn, server net.Addr) (cookie, error) {
	defer pc.SetReadDeadline(time.Time{})
	want := addrPort(server)
	req := appendConnectRequest(nil)
	buf := make([]byte, 2048)
	wait := connectRetryFirst
	for {
		if _, err := pc.WriteTo(req, server); err != nil {
			return cookie{}, fmt.Errorf("transport: connect to %s: %w", server, err)
		}
		until := time.Now().Add(wait)
		if d, ok := ctx.Deadline(); ok && d.Before(until) {
			until = d
		}
		pc.SetReadDeadline(until)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				if ctx.Err() != nil || (!IsTimeout(err) && !errors.Is(err, context.DeadlineExceeded)) {
					return cookie{}, fmt.Errorf("transport: no answer to connect from %s: %w", server, cmpErr(ctx.Err(), err))
				}
				break // this wait is over: ask again
			}
			c, version, err := parseChallenge(buf[:n])
			if err != nil || addrPort(from) != want {
				continue // not for us: stray or late datagrams
			}
			if version != ProtocolVersion {
				return cookie{}, fmt.Errorf("%w: %s speaks protocol %d, this client %d", ErrVersionMismatch, server, version, ProtocolVersion)
			}
			return c, nil
		}
		if ctx.Err() != nil {
			return cookie{}, fmt.Errorf("transport: no answer to connect from %s: %w", server, ctx.Err())
		}
		wait = min(2*wait, connectRetryMax)
	}
}

func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// WriteTo sends b, wrapped with our cookie until the server has admitted us.
func (g *dialGate) WriteTo(b []byte, addr net.Addr) (int, error) {
	if g.admitted() {
		return g.PacketConn.WriteTo(b, addr)
	}
	g.mu.Lock()
	wrapped := appendConnectResponse(make([]byte, 0, responseHeaderSize+len(b)), g.cookie, b)
	g.mu.Unlock()
	if _, err := g.PacketConn.WriteTo(wrapped, addr); err != nil {
		return 0, err
	}
	return len(b), nil
}

// ReadFrom returns the next datagram for kcp-go. The first one of our conversation from the
// server proves we are admitted, and one of another conversation is dropped; a Challenge
// before that refreshes an expired cookie; other handshake datagrams are dropped.
func (g *dialGate) ReadFrom(b []byte) (int, net.Addr, error) {
	for {
		n, addr, err := g.PacketConn.ReadFrom(b)
		if err != nil {
			return n, addr, err
		}
		if _, _, err := connectKind(b[:n]); err == nil {
			if c, version, err := parseChallenge(b[:n]); err == nil && version == ProtocolVersion &&
				!g.admitted() && addrPort(addr) == addrPort(g.server) {
				g.mu.Lock()
				g.cookie = c
				g.mu.Unlock()
			}
			continue
		}
		if addrPort(addr) == addrPort(g.server) {
			conv, hasConv := datagramConv(b[:n]) // an FEC parity packet names none
			if hasConv && conv != g.conv {
				// Another conversation's: the server still answering an earlier client that
				// had our address and port (the system gave us its port again). It is no
				// proof that we are admitted, and kcp-go has no use for it.
				continue
			}
			if hasConv || g.admitted() {
				g.heard.Store(time.Now().UnixNano())
			}
		}
		return n, addr, nil
	}
}
