package sim

import (
	"net"
	"sync/atomic"
	"time"
)

// countingConn is a net.PacketConn that counts the UDP payload bytes and packets going
// through the conn it wraps. It is safe for concurrent use, as the wrapped conn is; Close
// closes the wrapped conn.
type countingConn struct {
	conn                    net.PacketConn
	readBytes, writtenBytes atomic.Int64
	readPkts, writtenPkts   atomic.Int64
}

func newCountingConn(conn net.PacketConn) *countingConn { return &countingConn{conn: conn} }

func (c *countingConn) ReadFrom(b []byte) (int, net.Addr, error) {
	n, addr, err := c.conn.ReadFrom(b)
	if n > 0 {
		c.readBytes.Add(int64(n))
		c.readPkts.Add(1)
	}
	return n, addr, err
}

func (c *countingConn) WriteTo(b []byte, addr net.Addr) (int, error) {
	n, err := c.conn.WriteTo(b, addr)
	if n > 0 {
		c.writtenBytes.Add(int64(n))
		c.writtenPkts.Add(1)
	}
	return n, err
}

func (c *countingConn) Close() error                       { return c.conn.Close() }
func (c *countingConn) LocalAddr() net.Addr                { return c.conn.LocalAddr() }
func (c *countingConn) SetDeadline(t time.Time) error      { return c.conn.SetDeadline(t) }
func (c *countingConn) SetReadDeadline(t time.Time) error  { return c.conn.SetReadDeadline(t) }
func (c *countingConn) SetWriteDeadline(t time.Time) error { return c.conn.SetWriteDeadline(t) }
