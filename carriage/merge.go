package carriage

import (
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// Merged is one net.PacketConn over the game's UDP socket and a Hub (or any PacketConn whose
// addresses are PeerAddrs): it reads what either receives and writes to a PeerAddr through
// the hub, to any other address through the socket. A datagram that reaches the UDP socket
// from an address in PeerAddr's prefix is dropped, so no one on the network can pass for a
// browser. Safe for concurrent use.
type Merged struct {
	udp, hub net.PacketConn
	in       *inbox
	readers  sync.WaitGroup
	failed   atomic.Pointer[error] // why a reader stopped on its own
	spoofed  atomic.Uint64
	once     sync.Once
}

// mergedQueue is how many datagrams may wait for the reader: as a server socket's receive
// buffer, a few ticks of every player's input.
const mergedQueue = 4096

// Merge returns the Merged conn over udp and hub, which it owns and closes on Close.
func Merge(udp, hub net.PacketConn) *Merged {
	m := &Merged{udp: udp, hub: hub, in: newInbox(mergedQueue)}
	m.readers.Add(2)
	go m.pump(udp, true)
	go m.pump(hub, false)
	return m
}

// pump reads pc into the inbox until pc fails or closes.
func (m *Merged) pump(pc net.PacketConn, fromUDP bool) {
	defer m.readers.Done()
	buf := make([]byte, 64<<10)
	for {
		n, from, err := pc.ReadFrom(buf)
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue // a deadline someone set on the socket below: ours is the inbox's
			}
			if !errors.Is(err, net.ErrClosed) {
				m.failed.CompareAndSwap(nil, &err)
			}
			m.in.close() // the reader learns why from failed
			return
		}
		if fromUDP && isPeerAddr(from) {
			m.spoofed.Add(1)
			continue
		}
		m.in.put(append([]byte(nil), buf[:n]...), from)
	}
}

// Spoofed counts the UDP datagrams dropped for claiming a PeerAddr's prefix.
func (m *Merged) Spoofed() uint64 { return m.spoofed.Load() }

// ReadFrom returns the next datagram from either side. Once a side fails, it returns that
// side's error.
func (m *Merged) ReadFrom(p []byte) (int, net.Addr, error) {
	n, from, err := m.in.read(p)
	if errors.Is(err, net.ErrClosed) {
		if f := m.failed.Load(); f != nil {
			return 0, nil, *f
		}
	}
	return n, from, err
}

// WriteTo sends p through the hub when addr is a PeerAddr, through the UDP socket otherwise.
func (m *Merged) WriteTo(p []byte, addr net.Addr) (int, error) {
	if _, ok := addr.(PeerAddr); ok {
		return m.hub.WriteTo(p, addr)
	}
	return m.udp.WriteTo(p, addr)
}

// LocalAddr returns the UDP socket's address.
func (m *Merged) LocalAddr() net.Addr { return m.udp.LocalAddr() }

// SetDeadline sets the read deadline and the UDP socket's write deadline.
func (m *Merged) SetDeadline(t time.Time) error {
	m.in.setDeadline(t)
	return m.udp.SetWriteDeadline(t)
}

// SetReadDeadline sets the read deadline; the zero time means none.
func (m *Merged) SetReadDeadline(t time.Time) error { m.in.setDeadline(t); return nil }

// SetWriteDeadline sets the UDP socket's write deadline (the hub's writes never block).
func (m *Merged) SetWriteDeadline(t time.Time) error { return m.udp.SetWriteDeadline(t) }

// Close closes both sides and waits for their readers.
func (m *Merged) Close() error {
	var err error
	m.once.Do(func() {
		m.in.close()
		err = errors.Join(m.udp.Close(), m.hub.Close())
		m.readers.Wait()
	})
	return err
}
