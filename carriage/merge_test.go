//go:build !js

package carriage

import (
	"net"
	"net/netip"
	"testing"
	"time"
)

// TestMerge_RoutesByAddressAndDropsSpoofedPeers: the merged conn reads from the UDP socket
// and from the hub side, writes to a PeerAddr through the hub and to a UDP address through
// the socket, and drops UDP datagrams whose source claims a PeerAddr's prefix.
func TestMerge_RoutesByAddressAndDropsSpoofedPeers(t *testing.T) {
	udp, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hub := newFakeHub()
	m := Merge(udp, hub)
	defer m.Close()
	native, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer native.Close()

	browser := newPeerAddr(netip.MustParseAddr("192.0.2.7"), 1)
	hub.in.put([]byte("from a browser"), browser)
	native.WriteTo([]byte("from a native client"), udp.LocalAddr())
	got := map[string]net.Addr{}
	buf := make([]byte, 64)
	m.SetReadDeadline(time.Now().Add(20 * time.Second))
	for range 2 {
		n, from, err := m.ReadFrom(buf)
		if err != nil {
			t.Fatalf("ReadFrom: %v", err)
		}
		got[string(buf[:n])] = from
	}
	if got["from a browser"] != browser || got["from a native client"].String() != native.LocalAddr().String() {
		t.Fatalf("read %v, want the browser's datagram from %v and the native one from %v", got, browser, native.LocalAddr())
	}

	m.WriteTo([]byte("to the browser"), browser)
	if w := <-hub.written; w.from != browser || string(w.b) != "to the browser" {
		t.Errorf("the hub was given %q for %v, want the browser's datagram", w.b, w.from)
	}
	m.WriteTo([]byte("to the native client"), native.LocalAddr())
	native.SetReadDeadline(time.Now().Add(20 * time.Second))
	if n, _, err := native.ReadFrom(buf); err != nil || string(buf[:n]) != "to the native client" {
		t.Errorf("the native client read %q (%v)", buf[:n], err)
	}

	if !isPeerAddr(&net.UDPAddr{IP: browser.AddrPort.Addr().AsSlice(), Port: 1}) {
		t.Fatal("a UDP address in the peer prefix is not recognised")
	}
	if isPeerAddr(native.LocalAddr()) || isPeerAddr(&net.UDPAddr{IP: net.ParseIP("2001:db8::1"), Port: 1}) {
		t.Error("an ordinary address is taken for a peer's")
	}
}

// fakeHub is the hub side of a Merge: datagrams put in its inbox are read, writes are kept.
type fakeHub struct {
	in      *inbox
	written chan datagram
}

func newFakeHub() *fakeHub { return &fakeHub{in: newInbox(8), written: make(chan datagram, 8)} }

func (h *fakeHub) ReadFrom(p []byte) (int, net.Addr, error) { return h.in.read(p) }
func (h *fakeHub) WriteTo(p []byte, a net.Addr) (int, error) {
	h.written <- datagram{append([]byte(nil), p...), a}
	return len(p), nil
}
func (h *fakeHub) Close() error                     { h.in.close(); return nil }
func (h *fakeHub) LocalAddr() net.Addr              { return newPeerAddr(netipUnspecified, 0) }
func (h *fakeHub) SetDeadline(time.Time) error      { return nil }
func (h *fakeHub) SetReadDeadline(time.Time) error  { return nil }
func (h *fakeHub) SetWriteDeadline(time.Time) error { return nil }

// TestOfferLimiter steps one address's bucket through its burst, refusal and refill.
func TestOfferLimiter(t *testing.T) {
	l := NewAddressLimiter(2, time.Second)
	a, b := netip.MustParseAddr("192.0.2.1"), netip.MustParseAddr("192.0.2.2")
	t0 := time.Unix(1000, 0)
	steps := []struct {
		host netip.Addr
		at   time.Duration
		want bool
	}{
		{a, 0, true}, {a, 0, true}, {a, 0, false}, // the burst, then none
		{b, 0, true},                       // another address has its own bucket
		{a, 500 * time.Millisecond, false}, // half a token back
		{a, time.Second, true},             // a whole one
		{a, time.Second, false},
	}
	for i, s := range steps {
		if ok, retry := l.Allow(s.host, t0.Add(s.at)); ok != s.want || (!ok && retry <= 0) {
			t.Errorf("step %d: allow(%v, +%v) = %v (retry %v), want %v", i, s.host, s.at, ok, retry, s.want)
		}
	}
}

// TestPeerAddr_SamePrefixPerClient: the peers of one client address share a /64 (so the
// server's per-address limits count them together), other clients' do not, and every
// address parses as an AddrPort in the peer prefix.
func TestPeerAddr_SamePrefixPerClient(t *testing.T) {
	v4, v6 := netip.MustParseAddr("198.51.100.9"), netip.MustParseAddr("2001:db8:1:2::5")
	v6Neighbour := netip.MustParseAddr("2001:db8:1:2::77") // the same /64
	prefix := func(a PeerAddr) netip.Prefix { p, _ := a.AddrPort.Addr().Prefix(64); return p }
	if prefix(newPeerAddr(v4, 1)) != prefix(newPeerAddr(v4, 2)) || newPeerAddr(v4, 1) == newPeerAddr(v4, 2) {
		t.Error("two peers of one IPv4 client: want one /64, two addresses")
	}
	if prefix(newPeerAddr(v6, 1)) != prefix(newPeerAddr(v6Neighbour, 2)) {
		t.Error("two peers of one IPv6 /64: want one /64")
	}
	if prefix(newPeerAddr(v4, 1)) == prefix(newPeerAddr(netip.MustParseAddr("198.51.100.10"), 1)) {
		t.Error("two IPv4 clients share a /64")
	}
	for _, a := range []PeerAddr{newPeerAddr(v4, 3), newPeerAddr(v6, 1<<40)} {
		ap, err := netip.ParseAddrPort(a.String())
		if err != nil || ap != a.AddrPort || !isPeerIP(ap.Addr()) {
			t.Errorf("%v: parses as %v (%v), want itself in the peer prefix", a, ap, err)
		}
	}
}
