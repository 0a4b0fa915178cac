package carriage

import (
	"context"
	"net"
	"sync/atomic"
	"time"
)

// Dial has one signature on every build target: through pion (dial.go) or the browser's
// RTCPeerConnection (dial_js.go), a caller dials the same way.
var _ func(ctx context.Context, offerURL string) (*Conn, error) = Dial

// connCore is the reading side a client's Conn has on every platform: the datagrams the
// data channel delivered, and the address the session above writes to.
type connCore struct {
	in     *inbox
	server atomic.Pointer[net.Addr]
	texts  atomic.Uint64 // text messages dropped (receive)
}

// receive takes one message of the data channel: a datagram is binary, so a text message
// is dropped and counted, never read as one (PROTOCOL.md §1.9), as the server's hub does.
func (c *connCore) receive(b []byte, text bool) {
	if text {
		c.texts.Add(1)
		return
	}
	c.in.put(b, nil)
}

// TextMessages returns how many text messages the data channel brought and were dropped.
func (c *connCore) TextMessages() uint64 { return c.texts.Load() }

// ReadFrom reads the next datagram from the server.
func (c *connCore) ReadFrom(p []byte) (int, net.Addr, error) {
	n, _, err := c.in.read(p)
	if err != nil {
		return n, nil, err
	}
	return n, c.serverAddr(), nil
}

// noteServer remembers addr as the server's: the address datagrams read came from.
func (c *connCore) noteServer(addr net.Addr) {
	if old := c.server.Load(); old == nil || *old != addr {
		c.server.Store(&addr)
	}
}

// serverAddr returns the address last written to, or 0.0.0.0:0 before any write.
func (c *connCore) serverAddr() net.Addr {
	if a := c.server.Load(); a != nil {
		return *a
	}
	return &net.UDPAddr{IP: net.IPv4zero}
}

// LocalAddr returns a PeerAddr standing for this end (the server knows it by another).
func (c *connCore) LocalAddr() net.Addr { return newPeerAddr(netipUnspecified, 0) }

// SetDeadline sets the read deadline (writes never block).
func (c *connCore) SetDeadline(t time.Time) error { c.in.setDeadline(t); return nil }

// SetReadDeadline sets the read deadline; the zero time means none.
func (c *connCore) SetReadDeadline(t time.Time) error { c.in.setDeadline(t); return nil }

// SetWriteDeadline does nothing: writes never block.
func (c *connCore) SetWriteDeadline(time.Time) error { return nil }
