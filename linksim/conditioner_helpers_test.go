package linksim

import (
	"errors"
	"net"
	"os"
	"sync"
	"testing"
	"time"
)

// listenUDP opens a loopback UDP socket that the test closes.
func listenUDP(t testing.TB) *net.UDPConn {
	t.Helper()
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// newConditionedUDP returns a conditioned loopback socket and a plain one to talk to it.
func newConditionedUDP(t testing.TB, c Conditions, seed uint64) (*ConditionedConn, *net.UDPConn) {
	t.Helper()
	cc, err := Condition(listenUDP(t), c, seed)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cc.Close() })
	return cc, listenUDP(t)
}

// readWithin reads one packet from pc, failing the test after waitLimit.
func readWithin(t testing.TB, pc net.PacketConn) ([]byte, net.Addr) {
	t.Helper()
	if err := pc.SetReadDeadline(time.Now().Add(waitLimit)); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 2048)
	n, addr, err := pc.ReadFrom(buf)
	if err != nil {
		t.Fatalf("ReadFrom: %v", err)
	}
	return buf[:n], addr
}

// sendThenMarker sends packets through cc (outbound) or to it (inbound), then makes the
// link perfect and sends a marker. It returns what arrived before the marker, in order.
func sendThenMarker(t *testing.T, cc *ConditionedConn, peer *net.UDPConn, outbound bool, packets [][]byte) []string {
	t.Helper()
	var src, dst net.PacketConn = cc, peer
	if !outbound {
		src, dst = peer, cc
	}
	for _, p := range packets {
		if _, err := src.WriteTo(p, dst.LocalAddr()); err != nil {
			t.Fatal(err)
		}
	}
	// Inbound packets are decided when the reader picks them up; wait for that before
	// changing the conditions.
	waitFor(t, "every packet offered", func() bool {
		st := cc.Stats()
		return st.Outbound.Offered+st.Inbound.Offered >= uint64(len(packets))
	})
	if err := cc.SetConditions(Conditions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := src.WriteTo([]byte("marker"), dst.LocalAddr()); err != nil {
		t.Fatal(err)
	}
	var got []string
	for {
		p, _ := readWithin(t, dst)
		if string(p) == "marker" {
			waitIdle(t, cc)
			return got
		}
		got = append(got, string(p))
	}
}

// waitFor polls cond until it holds, failing the test after waitLimit.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for limit := time.Now().Add(waitLimit); !cond(); {
		if time.Now().After(limit) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// waitIdle waits until every packet cc has taken in is accounted for: its counters
// balance in both directions.
func waitIdle(t testing.TB, cc *ConditionedConn) {
	t.Helper()
	balanced := func(s LinkStats) bool {
		return s.Offered+s.Duplicated == s.Delivered+s.Lost+s.Overflowed+s.Failed
	}
	waitFor(t, "the counters to balance", func() bool {
		st := cc.Stats()
		return balanced(st.Outbound) && balanced(st.Inbound)
	})
}

func assertTimeout(t testing.TB, err error) {
	t.Helper()
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("error = %v, want a net.Error with Timeout() true", err)
	}
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("error = %v, want os.ErrDeadlineExceeded", err)
	}
}

// memConn is an in-memory net.PacketConn for benchmarks and tests that must not depend on
// the kernel's socket buffers: ReadFrom returns packets pushed into in, and WriteTo sends
// packets to out. It ignores deadlines, which the conditioner never sets on it.
type memConn struct {
	in, out chan memPacket
	closed  chan struct{}
	once    sync.Once
}

type memPacket struct {
	data []byte
	addr net.Addr
}

type memAddr string

func (a memAddr) Network() string { return "mem" }
func (a memAddr) String() string  { return string(a) }

func newMemConn() *memConn {
	return &memConn{in: make(chan memPacket), out: make(chan memPacket, 1024), closed: make(chan struct{})}
}

func (m *memConn) ReadFrom(b []byte) (int, net.Addr, error) {
	select {
	case p := <-m.in:
		return copy(b, p.data), p.addr, nil
	case <-m.closed:
		return 0, nil, net.ErrClosed
	}
}

func (m *memConn) WriteTo(b []byte, addr net.Addr) (int, error) {
	select {
	case m.out <- memPacket{data: b, addr: addr}:
		return len(b), nil
	case <-m.closed:
		return 0, net.ErrClosed
	}
}

func (m *memConn) Close() error {
	m.once.Do(func() { close(m.closed) })
	return nil
}

func (m *memConn) LocalAddr() net.Addr              { return memAddr("local") }
func (m *memConn) SetDeadline(time.Time) error      { return nil }
func (m *memConn) SetReadDeadline(time.Time) error  { return nil }
func (m *memConn) SetWriteDeadline(time.Time) error { return nil }
