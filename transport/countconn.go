package transport

import (
	"net"
	"sync/atomic"
	"time"
)

// Traffic is what went through a socket: UDP payload bytes and datagrams each way.
type Traffic struct {
	BytesIn, BytesOut         uint64
	DatagramsIn, DatagramsOut uint64
}

// trafficCount counts a socket's traffic; safe for concurrent use.
type trafficCount struct {
	bytesIn, bytesOut         atomic.Uint64
	datagramsIn, datagramsOut atomic.Uint64
}

// in counts a datagram of n bytes read (none when n is 0).
func (t *trafficCount) in(n int) {
	if n > 0 {
		t.bytesIn.Add(uint64(n))
		t.datagramsIn.Add(1)
	}
}

// out counts a datagram of n bytes written (none when n is 0).
func (t *trafficCount) out(n int) {
	if n > 0 {
		t.bytesOut.Add(uint64(n))
		t.datagramsOut.Add(1)
	}
}

// totals returns the counts so far.
func (t *trafficCount) totals() Traffic {
	return Traffic{
		BytesIn: t.bytesIn.Load(), BytesOut: t.bytesOut.Load(),
		DatagramsIn: t.datagramsIn.Load(), DatagramsOut: t.datagramsOut.Load(),
	}
}

// CountingConn is a net.PacketConn that counts the bytes and datagrams read from and
// written to the conn it wraps (a server's Listener counts its own: Listener.Traffic). It is
// safe for concurrent use, as the wrapped conn is; Close closes the wrapped conn.
type CountingConn struct {
	conn  net.PacketConn
	count trafficCount
}

// NewCountingConn returns a CountingConn over conn.
func NewCountingConn(conn net.PacketConn) *CountingConn { return &CountingConn{conn: conn} }

// Traffic returns the totals so far.
func (c *CountingConn) Traffic() Traffic { return c.count.totals() }

// ReadFrom reads one datagram from the wrapped conn and counts it.
func (c *CountingConn) ReadFrom(b []byte) (int, net.Addr, error) {
	n, addr, err := c.conn.ReadFrom(b)
	c.count.in(n)
	return n, addr, err
}

// WriteTo writes one datagram to the wrapped conn and counts it.
func (c *CountingConn) WriteTo(b []byte, addr net.Addr) (int, error) {
	n, err := c.conn.WriteTo(b, addr)
	c.count.out(n)
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
