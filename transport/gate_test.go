package transport

import (
	"bytes"
	"encoding/binary"
	"net"
	"net/netip"
	"testing"
	"time"
)

// admitClient runs the handshake for clientAddr on g and returns the cookie it got.
func admitClient(t *testing.T, sc *scriptConn, g *gate, conv uint32) cookie {
	t.Helper()
	sc.queue(appendConnectRequest(nil), clientAddr)
	readAll(g)
	sent := sc.takeSent()
	if len(sent) != 1 {
		t.Fatalf("request drew %d replies, want one Challenge", len(sent))
	}
	c, version, err := parseChallenge(sent[0].b)
	if err != nil || version != ProtocolVersion {
		t.Fatalf("reply %x: %v (version %d), want a Challenge", sent[0].b, err, version)
	}
	hello := testPush(conv, 0, []byte("hello"))
	sc.queue(appendConnectResponse(nil, c, hello), clientAddr)
	if up := readAll(g); len(up) != 1 || !bytes.Equal(up[0], hello) {
		t.Fatalf("response passed up %x, want the KCP datagram inside", up)
	}
	return c
}

func TestGate_AdmitsOnlyWithACookieForThatAddress(t *testing.T) {
	sc := new(scriptConn)
	g := newGate(sc, DefaultChallengesPerSecond, nil)
	c := admitClient(t, sc, g, 7)

	// The cookie is bound to the address: another address cannot use it.
	sc.queue(appendConnectResponse(nil, c, testPush(8, 0, nil)), otherAddr)
	if up := readAll(g); len(up) != 0 {
		t.Errorf("a cookie from another address let %x through", up)
	}
	// A forged cookie is answered with a fresh Challenge, nothing passes.
	var forged cookie
	forged[0] = 1
	sc.queue(appendConnectResponse(nil, forged, testPush(9, 0, nil)), otherAddr)
	if up := readAll(g); len(up) != 0 {
		t.Errorf("a forged cookie let %x through", up)
	}
	st := g.stats()
	if st.Admitted != 1 || st.BadCookies != 2 || st.Admissions != 1 {
		t.Errorf("stats %+v: want 1 admitted, 2 bad cookies", st)
	}
}

func TestGate_AdmittedAddressKeepsItsConversation(t *testing.T) {
	sc := new(scriptConn)
	g := newGate(sc, DefaultChallengesPerSecond, nil)
	admitClient(t, sc, g, 7)
	own := testPush(7, 1, []byte("input"))
	sc.queue(own, clientAddr)
	sc.queue(testPush(99, 0, []byte("impostor hello")), clientAddr)                  // a reset: new conv, sn 0
	sc.queue([]byte{0xff, 0xff, 0xff, 0xff, 0xf3, 0, 6, 0, 99, 0, 0, 0}, clientAddr) // OOB for conv 99
	up := readAll(g)
	if len(up) != 1 || !bytes.Equal(up[0], own) {
		t.Errorf("passed up %x, want only the admitted conversation's datagram", up)
	}
	if st := g.stats(); st.WrongConv != 2 {
		t.Errorf("stats %+v: want 2 datagrams dropped for their conversation", st)
	}
	// The address itself, with a fresh cookie, may start a new conversation.
	admitClient(t, sc, g, 100)
	if st := g.stats(); st.Replaced != 1 || st.Admissions != 1 {
		t.Errorf("stats %+v: want the conversation replaced after a fresh cookie", st)
	}
}

func TestGate_ExpiredCookieGetsAFreshChallenge(t *testing.T) {
	sc := new(scriptConn)
	g := newGate(sc, DefaultChallengesPerSecond, nil)
	old := g.minter.mint(addrPort(clientAddr), uint64(time.Now().Add(-CookieLifetime-time.Second).UnixMilli()))
	sc.queue(appendConnectResponse(nil, old, testPush(7, 0, nil)), clientAddr)
	if up := readAll(g); len(up) != 0 {
		t.Fatalf("an expired cookie let %x through", up)
	}
	sent := sc.takeSent()
	if len(sent) != 1 {
		t.Fatalf("an expired cookie drew %d replies, want a fresh Challenge", len(sent))
	}
	if _, _, err := parseChallenge(sent[0].b); err != nil {
		t.Errorf("reply %x is not a Challenge: %v", sent[0].b, err)
	}
}

func TestGate_ReleasedAddressMustProveItselfAgain(t *testing.T) {
	sc := new(scriptConn)
	g := newGate(sc, DefaultChallengesPerSecond, nil)
	admitClient(t, sc, g, 7)
	g.peerOf(clientAddr, 7).release()
	sc.queue(testPush(7, 3, nil), clientAddr)
	if up := readAll(g); len(up) != 0 {
		t.Errorf("a released address passed %x", up)
	}
}

func TestGate_AnOldSessionCannotReleaseItsSuccessor(t *testing.T) {
	// A client restarts from the same port (conversation 8) before the server accepted
	// the session of its conversation 7: closing the old session must leave the new
	// admission in place.
	sc := new(scriptConn)
	g := newGate(sc, DefaultChallengesPerSecond, nil)
	admitClient(t, sc, g, 7)
	admitClient(t, sc, g, 8)
	if old := g.peerOf(clientAddr, 7); old != nil {
		t.Fatal("the replaced conversation 7 still found an admission")
	}
	g.peerOf(clientAddr, 7).release() // nil: safe, and releases nothing
	sc.queue(testPush(8, 3, nil), clientAddr)
	if up := readAll(g); len(up) != 1 {
		t.Errorf("conversation 8 passed %d datagrams after the old session closed, want 1", len(up))
	}
}

func TestAckWatch_StallGrowsOnlyWhileDataWaits(t *testing.T) {
	var w ackWatch
	at := func(ms int) time.Duration { return time.Duration(ms) * time.Millisecond }
	if got := w.stall(at(0)); got != 0 {
		t.Fatalf("stall before anything was sent = %v", got)
	}
	w.sent(testPush(7, 0, []byte("welcome")), at(100))
	w.sent(testPush(7, 1, []byte("roster")), at(150))
	if got := w.stall(at(600)); got != at(500) {
		t.Errorf("stall with two pushes unacknowledged since 100 ms = %v, want 500ms", got)
	}
	ack := appendKCPSegment(nil, kcpSegment{conv: 7, cmd: kcpCmdAck, wnd: 256, una: 1})
	w.received(ack, at(700))
	if got := w.stall(at(800)); got != at(100) {
		t.Errorf("stall after the first was acknowledged at 700 ms = %v, want 100ms", got)
	}
	w.received(appendKCPSegment(nil, kcpSegment{conv: 7, cmd: kcpCmdAck, wnd: 256, una: 2}), at(900))
	w.sent(testPush(7, 1, []byte("roster")), at(950)) // a retransmission changes nothing
	if got := w.stall(at(5000)); got != 0 {
		t.Errorf("stall with everything acknowledged = %v, want 0", got)
	}
	w.received(appendKCPSegment(nil, kcpSegment{conv: 7, cmd: kcpCmdAck, wnd: 0, una: 2}), at(6000))
	if got := w.stall(at(9000)); got != at(3000) {
		t.Errorf("stall with the window shut since 6 s = %v, want 3s (a peer that does not read)", got)
	}
}

// TestConnect_DatagramBytesAsDocumented pins the handshake layout docs/PROTOCOL.md §1.5
// prints. If this test changes, change the document too.
func TestConnect_DatagramBytesAsDocumented(t *testing.T) {
	req := appendConnectRequest(nil)
	want := append([]byte{0x54, 0x4e, 0x4b, 0x21, 0xe1, 0x02}, make([]byte, 26)...)
	if !bytes.Equal(req, want) || len(req) != 32 {
		t.Errorf("ConnectRequest = % x, want % x", req, want)
	}
	var c cookie
	for i := range c {
		c[i] = byte(i)
	}
	ch := appendChallenge(nil, c)
	if len(ch) != 30 || !bytes.Equal(ch[:6], []byte("TNK!\xe2\x02")) || !bytes.Equal(ch[6:], c[:]) {
		t.Errorf("Challenge = % x", ch)
	}
	resp := appendConnectResponse(nil, c, []byte{9, 9})
	if len(resp) != 32 || !bytes.Equal(resp[:6], []byte("TNK!\xe3\x02")) || !bytes.Equal(resp[6:30], c[:]) {
		t.Errorf("ConnectResponse = % x", resp)
	}
	if challengeSize > ConnectRequestSize {
		t.Errorf("a Challenge (%d bytes) is larger than the request that draws it (%d)", challengeSize, ConnectRequestSize)
	}
}

// TestCookieMinter_AllocatesNothing: minting and checking run for every handshake datagram,
// which anyone can send; they reuse one MAC and allocate nothing.
func TestCookieMinter_AllocatesNothing(t *testing.T) {
	var m cookieMinter
	addr := netip.MustParseAddrPort("192.0.2.7:4000")
	c := m.mint(addr, 1000)
	if !m.valid(c[:], addr, 1000) {
		t.Fatal("a fresh cookie is not valid")
	}
	if m.valid(c[:], netip.MustParseAddrPort("192.0.2.8:4000"), 1000) {
		t.Fatal("a cookie is valid for another address")
	}
	if n := testing.AllocsPerRun(100, func() { c = m.mint(addr, 1000); m.valid(c[:], addr, 1000) }); n != 0 {
		t.Errorf("mint and valid allocate %v times, want 0", n)
	}
}

// A server paused for longer than the gate's silence limit (its process stopped, its host
// suspended) must not find its players' addresses forgotten when it runs again: an address
// with a live session stays admitted however long it is silent, until the session ends,
// because the server's own pause grace decides that silence. An address admitted without a
// session is still forgotten after admitIdle.
func TestGate_LiveSessionOutlastsASilenceAcrossAPause(t *testing.T) {
	for _, live := range []bool{true, false} {
		sc := new(scriptConn)
		g := newGate(sc, DefaultChallengesPerSecond, nil)
		now := time.Duration(0)
		g.clock = func() time.Duration { return now }
		admitClient(t, sc, g, 7)
		if live {
			if g.peerOf(clientAddr, 7) == nil {
				t.Fatal("no admission for the session")
			}
		}
		// Silent from 2 s before a 7 s pause to 2 s after it: 11 s.
		now += 2*time.Second + 7*time.Second + 2*time.Second
		sc.queue(testPush(7, 1, []byte("input")), clientAddr)
		up := readAll(g)
		if live && len(up) != 1 {
			t.Errorf("live session: passed %d datagrams after 11 s of silence, want its input (unvalidated: %d)", len(up), g.stats().Unvalidated)
		}
		if !live && len(up) != 0 {
			t.Errorf("no session: passed %x after 11 s of silence, want the address forgotten", up)
		}
	}
}

// tanknet_gate_unvalidated_bytes_total{direction="in"} (PROTOCOL.md §11) counts every byte
// that came from an address not admitted at the time, handshakes good and bad included, and
// none from an admitted one.
func TestGate_UnvalidatedBytesInAreEveryByteFromAnAddressNotAdmitted(t *testing.T) {
	sc := new(scriptConn)
	g := newGate(sc, DefaultChallengesPerSecond, nil)
	var want uint64
	from := func(b []byte, addr *net.UDPAddr, notAdmitted bool) {
		t.Helper()
		sc.queue(b, addr)
		readAll(g)
		sc.takeSent()
		if notAdmitted {
			want += uint64(len(b))
		}
		if got := g.stats().BytesIn; got != want {
			t.Fatalf("after %d bytes (%x): BytesIn %d, want %d", len(b), b[:min(len(b), 8)], got, want)
		}
	}
	request := appendConnectRequest(nil)
	from(request, clientAddr, true)
	from(request[:ConnectRequestSize-1], clientAddr, true) // too short: malformed
	from(testPush(7, 0, []byte("bare, before any handshake")), clientAddr, true)
	from(appendChallenge(nil, cookie{}), clientAddr, true) // only servers send those
	c, _, err := parseChallenge(appendChallenge(nil, g.minter.mint(addrPort(clientAddr), uint64(time.Now().UnixMilli()))))
	if err != nil {
		t.Fatal(err)
	}
	from(appendConnectResponse(nil, c, testPush(7, 0, []byte("hello"))), clientAddr, true) // admits
	from(testPush(7, 1, []byte("input")), clientAddr, false)
	from(request, clientAddr, false) // a new conversation's start, from an admitted address
	from(appendConnectResponse(nil, c, testPush(7, 0, []byte("hello"))), otherAddr, true)
}

// A client wraps FEC parity too until it is admitted (PROTOCOL.md §1.5, client rule 2). A
// parity packet names no conversation, so it admits no one and is dropped before the
// address is admitted, and passed to kcp-go with its conversation's groups after; neither
// is malformed.
func TestGate_WrappedParityIsNoMalformedDatagram(t *testing.T) {
	sc := new(scriptConn)
	g := newGate(sc, DefaultChallengesPerSecond, nil)
	c, _, err := parseChallenge(appendChallenge(nil, g.minter.mint(addrPort(clientAddr), uint64(time.Now().UnixMilli()))))
	if err != nil {
		t.Fatal(err)
	}
	parity := binary.LittleEndian.AppendUint32(nil, 3)
	parity = binary.LittleEndian.AppendUint16(parity, fecTypeParity)
	parity = append(parity, make([]byte, 2+kcpHeaderSize)...)
	sc.queue(appendConnectResponse(nil, c, parity), clientAddr)
	if up := readAll(g); len(up) != 0 {
		t.Fatalf("parity before the admission passed up %x", up)
	}
	if st := g.stats(); st.Malformed != 0 || st.Admissions != 0 {
		t.Fatalf("stats %+v: want nothing malformed, nothing admitted", st)
	}
	sc.takeSent()
	admitClient(t, sc, g, 7)
	sc.queue(appendConnectResponse(nil, c, parity), clientAddr)
	if up := readAll(g); len(up) != 1 || !bytes.Equal(up[0], parity) {
		t.Fatalf("parity after the admission passed up %x, want the parity packet", up)
	}
	if st := g.stats(); st.Malformed != 0 {
		t.Errorf("stats %+v: want nothing malformed", st)
	}
	// With a forged cookie it is a ConnectResponse like any other: a bad cookie.
	var forged cookie
	forged[0] = 1
	sc.queue(appendConnectResponse(nil, forged, parity), otherAddr)
	if up := readAll(g); len(up) != 0 {
		t.Fatalf("parity with a forged cookie passed up %x", up)
	}
	if st := g.stats(); st.Malformed != 0 || st.BadCookies != 1 {
		t.Errorf("stats %+v: want the forged cookie counted as one, nothing malformed", st)
	}
}
