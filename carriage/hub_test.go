//go:build !js

package carriage

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/netip"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pion/webrtc/v4"

	"tanknet/transport"
)

// TestHub_DatagramsBothWaysEachPeerItsOwnAddress: two browsers' datagrams reach the
// Hub's reader from two distinct PeerAddrs that stand for the same client address, and
// what the server writes to each address reaches that browser only.
func TestHub_DatagramsBothWaysEachPeerItsOwnAddress(t *testing.T) {
	th := startHub(t, DefaultHubConfig())
	a, b := dial(t, th), dial(t, th)
	addrs := map[string]net.Addr{}
	var server net.Addr = &net.UDPAddr{IP: net.IPv4(192, 0, 2, 1), Port: 7777} // what the session above dials
	buf := make([]byte, 2048)
	for _, c := range []*Conn{a, b} {
		msg := []byte("from " + string(rune('a'+len(addrs))))
		if _, err := c.WriteTo(msg, server); err != nil {
			t.Fatal(err)
		}
		th.SetReadDeadline(time.Now().Add(20 * time.Second))
		n, from, err := th.ReadFrom(buf)
		if err != nil {
			t.Fatalf("Hub.ReadFrom: %v", err)
		}
		if !bytes.Equal(buf[:n], msg) {
			t.Fatalf("Hub read %q, want %q", buf[:n], msg)
		}
		if _, ok := from.(PeerAddr); !ok || !isPeerAddr(from) {
			t.Fatalf("a datagram came from %v (%T), want a PeerAddr", from, from)
		}
		addrs[string(msg)] = from
	}
	if addrs["from a"] == addrs["from b"] {
		t.Fatalf("two peers share the address %v", addrs["from a"])
	}
	if hostOfAddr(addrs["from a"]) != hostOfAddr(addrs["from b"]) {
		t.Errorf("two peers from one client address have /64s %v and %v, want one", addrs["from a"], addrs["from b"])
	}
	if _, err := th.WriteTo([]byte("to b"), addrs["from b"]); err != nil {
		t.Fatal(err)
	}
	b.SetReadDeadline(time.Now().Add(20 * time.Second))
	n, from, err := b.ReadFrom(buf)
	if err != nil || string(buf[:n]) != "to b" || from != server {
		t.Fatalf("b read %q from %v (%v), want %q from the server", buf[:n], from, err, "to b")
	}
	a.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	if n, _, err := a.ReadFrom(buf); !errors.Is(err, errTimeout) && !transport.IsTimeout(err) {
		t.Errorf("a read %q (%v), want nothing: the datagram was b's", buf[:n], err)
	}
}

var errTimeout = context.DeadlineExceeded

// hostOfAddr returns the /64 of a PeerAddr.
func hostOfAddr(a net.Addr) string {
	p, _ := a.(PeerAddr).AddrPort.Addr().Prefix(64)
	return p.String()
}

// TestHub_KCPSessionOverTheCarriage runs transport's listener and dialer, cookie
// handshake and all, over the Hub and a Conn, and counts the peer as joined.
func TestHub_KCPSessionOverTheCarriage(t *testing.T) {
	th := startHub(t, DefaultHubConfig())
	ln, err := transport.Listen(th.Hub, transport.ListenConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan *transport.Conn, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			accepted <- c
		}
	}()
	c := dial(t, th)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, err := transport.DialContext(ctx, "127.0.0.1:1", c)
	if err != nil {
		t.Fatalf("KCP dial over the carriage: %v", err)
	}
	defer conn.Close()
	heard := make(chan string, 1)
	conn.OnDatagram(func(b []byte) {
		select {
		case heard <- string(b):
		default:
		}
	})
	if err := conn.SendDatagram([]byte("hello")); err != nil {
		t.Fatal(err)
	}
	var sc *transport.Conn
	select {
	case sc = <-accepted:
	case <-ctx.Done():
		t.Fatal("the listener accepted no session over the carriage")
	}
	defer sc.Close()
	if err := sc.SendDatagram([]byte("welcome")); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-heard:
		if got != "welcome" {
			t.Errorf("the browser heard %q, want welcome", got)
		}
	case <-ctx.Done():
		t.Fatal("the browser heard nothing from the server's session")
	}
	waitFor(t, "the peer counted as joined", func() bool { return th.Stats().Joined == 1 })
	if g := ln.GateStats(); g.Admitted != 1 {
		t.Errorf("gate admitted %d addresses, want 1", g.Admitted)
	}
}

// TestHub_ClosesAPeerWithAnotherKindOfChannel: a browser that opens an ordered (reliable)
// channel instead of the unordered, unreliable one is closed, not carried.
func TestHub_ClosesAPeerWithAnotherKindOfChannel(t *testing.T) {
	th := startHub(t, DefaultHubConfig())
	pc := gatheredOffer(t, nil) // ordered and reliable: WebRTC's default
	offerAndAnswer(t, th, pc, pc.LocalDescription().SDP)
	waitFor(t, "the peer closed", func() bool { return th.Stats().Dropped[dropBadChannel] == 1 && th.Stats().Peers == 0 })
}

// sentChannel is a peer's open data channel that keeps what the Hub sends on it.
type sentChannel struct {
	mu   sync.Mutex
	sent []string
}

func (c *sentChannel) Send(data []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sent = append(c.sent, string(data))
	return nil
}

func (c *sentChannel) BufferedAmount() uint64 { return 0 }

func (c *sentChannel) said() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.sent)
}

// TestHub_AMessageBeforeItsOpenOpensTheChannel: pion runs a data channel's open handler and
// its message handler each on a goroutine of its own, so on a busy machine the browser's
// first datagram (its ConnectRequest) can come before the channel is known to be open. The
// message opens it: the answer is sent, not dropped as one to a channel not open yet, and
// the open handler coming late changes nothing.
func TestHub_AMessageBeforeItsOpenOpensTheChannel(t *testing.T) {
	th := startHub(t, DefaultHubConfig())
	pc, err := webrtc.NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	pr := &peer{addr: newPeerAddr(netip.MustParseAddr("127.0.0.1"), 1), pc: pc, offered: time.Now()}
	pr.lastGame.Store(time.Now().UnixNano())
	th.mu.Lock()
	th.peers[pr.addr] = pr
	th.mu.Unlock()
	dc := new(sentChannel)

	if _, err := th.WriteTo([]byte("too soon"), pr.addr); err != nil {
		t.Fatal(err)
	}
	th.received(pr, dc, []byte("hello"), false) // before the open handler ran
	buf := make([]byte, 64)
	n, from, err := th.ReadFrom(buf)
	if err != nil || string(buf[:n]) != "hello" || from != pr.addr {
		t.Fatalf("ReadFrom = %q from %v (%v), want the peer's hello from %v", buf[:n], from, err, pr.addr)
	}
	if _, err := th.WriteTo([]byte("answer"), pr.addr); err != nil {
		t.Fatal(err)
	}
	th.opened(pr, dc) // the open handler, late
	if _, err := th.WriteTo([]byte("next"), pr.addr); err != nil {
		t.Fatal(err)
	}
	if got, want := dc.said(), []string{"answer", "next"}; !slices.Equal(got, want) {
		t.Errorf("the peer's channel was sent %q, want %q: nothing before its first message, then every datagram", got, want)
	}
}
