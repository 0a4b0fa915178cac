package transport

import (
	"net"
	"sync/atomic"
	"time"
)

// Traffic is what went through a CountingConn: UDP payload bytes and datagrams each way.
type Traffic struct {
	BytesIn, BytesOut         uint64
	DatagramsIn, DatagramsOut uint64
}

// CountingConn is a net.PacketConn that counts the bytes and datagrams read from and
// written to the conn it wraps. It is safe for concurrent use, as the wrapped conn is; Close
// closes the wrapped conn.
type CountingConn struct {
	conn                      net.PacketConn
	bytesIn, bytesOut         atomic.Uint64
	datagramsIn, datagramsOut atomic.Uint64
}

// NewCountingConn returns a CountingConn over conn.
func NewCountingConn(conn net.PacketConn) *CountingConn { return &CountingConn{conn: conn} }

// Traffic returns the totals so far.
func (c *CountingConn) Traffic() Traffic {
	return Traffic{
		BytesIn: c.bytesIn.Load(), BytesOut: c.bytesOut.Load(),
		DatagramsIn: c.datagramsIn.Load(), DatagramsOut: c.datagramsOut.Load(),
	}
}

// ReadFrom reads one datagram from the wrapped conn and counts it.
func (c *CountingConn) ReadFrom(b []byte) (int, net.Addr, error) {
	n, addr, err := c.conn.ReadFrom(b)
	if n > 0 {
		c.bytesIn.Add(uint64(n))
		c.datagramsIn.Add(1)
	}
	return n, addr, err
}

// WriteTo writes one datagram to the wrapped conn and counts it.
func (c *CountingConn) WriteTo(b []byte, addr net.Addr) (int, error) {
	n, err := c.conn.WriteTo(b, addr)
	if n > 0 {
		c.bytesOut.Add(uint64(n))
		c.datagramsOut.Add(1)
	}
	return n, err
}

// Close closes the wrapped conn.
func (c *CountingConn) Close() error { return c.conn.Close() }

// LocalAddr returns the wrapped conn's local address.
func (c *CountingConn) LocalAddr() net.Addr { return c.conn.LocalAddr() }

// SetDeadline sets the wrapped conn's deadlines.
func (c *CountingConn) SetDeadline(t time.Time) error { return c.conn.SetDeadline(t) }

// SetReadDeadline sets the wrapped conn's read deadline.
func (c *CountingConn) SetReadDeadline(t time.Time) error { return c.conn.SetReadDeadline(t) }

// SetWriteDeadline sets the wrapped conn's write deadline.
func (c *CountingConn) SetWriteDeadline(t time.Time) error { return c.conn.SetWriteDeadline(t) }

// SocketBuffer is the kernel buffer size TuneSocket asks for each way, in bytes: a server
// with 256 clients takes in some 15,000 datagrams a second, and a scheduling hiccup of a few
// tens of milliseconds must not overflow the default 208 KiB and drop them (KCP would
// retransmit, and a run of drops backs its timer off for seconds). The kernel caps it at
// net.core.rmem_max and wmem_max.
const SocketBuffer = 4 << 20

// TuneSocket gives pc, when it is a UDP socket, SocketBuffer bytes of kernel buffer each way.
// Anything else is left alone; failures are ignored (the defaults still work, only worse).
func TuneSocket(pc net.PacketConn) {
	if u, ok := pc.(*net.UDPConn); ok {
		_ = u.SetReadBuffer(SocketBuffer)
		_ = u.SetWriteBuffer(SocketBuffer)
	}
}
