package transport

import (
	"net"
	"sync"
	"time"
)

// scriptConn is a net.PacketConn for tests: ReadFrom returns the queued datagrams in order,
// then a timeout; WriteTo records what was sent, to whom.
type scriptConn struct {
	mu      sync.Mutex
	inbound []scriptDatagram
	sent    []scriptDatagram
}

type scriptDatagram struct {
	b    []byte
	addr net.Addr
}

func (c *scriptConn) queue(b []byte, from net.Addr) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.inbound = append(c.inbound, scriptDatagram{append([]byte(nil), b...), from})
}

func (c *scriptConn) ReadFrom(b []byte) (int, net.Addr, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.inbound) == 0 {
		return 0, nil, timeoutErr{}
	}
	d := c.inbound[0]
	c.inbound = c.inbound[1:]
	return copy(b, d.b), d.addr, nil
}

func (c *scriptConn) WriteTo(b []byte, addr net.Addr) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sent = append(c.sent, scriptDatagram{append([]byte(nil), b...), addr})
	return len(b), nil
}

// takeSent returns and forgets what was written.
func (c *scriptConn) takeSent() []scriptDatagram {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.sent
	c.sent = nil
	return s
}

func (c *scriptConn) Close() error { return nil }
func (c *scriptConn) LocalAddr() net.Addr {
	return &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 7777}
}
func (c *scriptConn) SetDeadline(time.Time) error      { return nil }
func (c *scriptConn) SetReadDeadline(time.Time) error  { return nil }
func (c *scriptConn) SetWriteDeadline(time.Time) error { return nil }

var (
	clientAddr = &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 40000}
	otherAddr  = &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 40001}
)

// readAll runs g.ReadFrom until the script is exhausted and returns what it passed up.
func readAll(g *gate) [][]byte {
	var up [][]byte
	buf := make([]byte, 4096)
	for {
		n, _, err := g.ReadFrom(buf)
		if err != nil {
			return up
		}
		up = append(up, append([]byte(nil), buf[:n]...))
	}
}

// testPush is a KCP push segment of conversation conv with sequence number sn.
func testPush(conv, sn uint32, payload []byte) []byte {
	return appendKCPSegment(nil, kcpSegment{conv: conv, cmd: kcpCmdPush, wnd: 256, sn: sn, payload: payload})
}
