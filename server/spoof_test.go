package server_test

import (
	"encoding/binary"
	"net"
	"testing"
	"time"

	"github.com/xtaci/kcp-go/v5"

	tankv1 "tanknet/proto/tank/v1"
	"tanknet/server"
	"tanknet/transport"
)

// kcpPush is a KCP push segment for conversation conv with sequence number sn, as a
// blind attacker would forge one.
func kcpPush(conv, sn uint32, payload []byte) []byte {
	b := binary.LittleEndian.AppendUint32(nil, conv)
	b = append(b, 81, 0)                         // cmd push, frg 0
	b = binary.LittleEndian.AppendUint16(b, 256) // wnd
	b = binary.LittleEndian.AppendUint32(b, 0)   // ts
	b = binary.LittleEndian.AppendUint32(b, sn)  // sn
	b = binary.LittleEndian.AppendUint32(b, 0)   // una
	b = binary.LittleEndian.AppendUint32(b, uint32(len(payload)))
	return append(b, payload...)
}

// kcpOOB is a 12-byte kcp-go out-of-band packet for conversation conv: FEC header with type
// f3 00 at bytes 4-5, a size, then the conv. kcp-go reads no sequence number from it.
func kcpOOB(conv uint32) []byte {
	b := []byte{0xff, 0xff, 0xff, 0xff, 0xf3, 0x00, 0x06, 0x00}
	return binary.LittleEndian.AppendUint32(b, conv)
}

// helloFrame is a framed ClientMessage{hello} of protocol version v.
func helloFrame(t *testing.T, v uint32) []byte {
	t.Helper()
	f, err := transport.AppendFrame(nil, hello(v))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestSpoof_NewConvAndOOBFromPlayersAddressChangeNothing: with a player in the game, an
// attacker sends, from that player's own IP and port, a new-conversation KCP datagram with
// sn 0 carrying a Hello and kcp-go's 12-byte OOB packet for another conversation. Before
// address validation either one replaced the player's session. Now both are dropped: the
// player keeps playing and nobody else joins.
func TestSpoof_NewConvAndOOBFromPlayersAddressChangeNothing(t *testing.T) {
	addr, srv := startServer(t, nil)
	pc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	r := dialRawOver(t, addr, pc) // the player's socket; the attacker writes through it too
	start := r.join()
	server, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		t.Fatal(err)
	}

	for i, attack := range [][]byte{
		kcpPush(0x0badf00d, 0, helloFrame(t, transport.ProtocolVersion)),
		kcpOOB(0x0badf00d),
		kcpOOB(0),
	} {
		if _, err := pc.WriteTo(attack, server); err != nil {
			t.Fatalf("attack %d: %v", i, err)
		}
	}
	// The player still plays: its next input is applied on the same session.
	r.send(move(start.Ack+1, 0, 1, 50))
	if got := r.ownState(start.Ack + 1); got.Ack != start.Ack+1 {
		t.Errorf("player's ack after the attack = %d, want %d", got.Ack, start.Ack+1)
	}
	st := srv.Stats()
	if st.Joins != 1 || st.Drops != 0 || st.Leaves != 0 {
		t.Errorf("server stats %+v: want the one player, never replaced", st)
	}
	if st.Gate.WrongConv < 3 || st.Gate.Admitted != 1 {
		t.Errorf("gate stats %+v: want the 3 spoofed datagrams dropped for their conversation, 1 admission", st.Gate)
	}
}

// TestSpoof_UnvalidatedAddressGetsAtMostThreeTimesItsBytes sends everything an attacker
// might try from an address that never completes the handshake, and counts what comes back.
func TestSpoof_UnvalidatedAddressGetsAtMostThreeTimesItsBytes(t *testing.T) {
	addr, srv := startServer(t, nil)
	server, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		t.Fatal(err)
	}
	pc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	request := append([]byte("TNK!\xe1\x02"), make([]byte, transport.ConnectRequestSize-6)...)
	forged := append([]byte("TNK!\xe3\x02"), make([]byte, 24)...) // a cookie of zeros
	forged = append(forged, kcpPush(7, 0, helloFrame(t, transport.ProtocolVersion))...)
	datagrams := [][]byte{
		request, request[:6], request[:transport.ConnectRequestSize-1], // whole, and too short to answer
		forged,
		kcpPush(1, 0, helloFrame(t, transport.ProtocolVersion)), // a current Hello without the handshake
		kcpPush(2, 0, helloFrame(t, 1)),                         // a protocol 1 client
		kcpPush(3, 0, nil), kcpOOB(4), []byte("garbage"), {},
		[]byte("TNK!\xe2\x02"), // a Challenge: only servers send those
	}
	sent := 0
	for range 20 {
		for _, d := range datagrams {
			if _, err := pc.WriteTo(d, server); err != nil {
				t.Fatal(err)
			}
			sent += len(d)
		}
	}
	// Read whatever comes back until the line has been quiet for a second (bounded: 30 s).
	got, challenges, rejects := 0, 0, 0
	buf := make([]byte, 2048)
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		pc.SetReadDeadline(time.Now().Add(time.Second))
		n, _, err := pc.ReadFrom(buf)
		if err != nil {
			break
		}
		got += n
		switch {
		case n >= 6 && string(buf[:4]) == "TNK!" && buf[4] == 0xe2:
			challenges++
		case n > 24 && buf[4] == 81:
			rejects++
		}
	}
	t.Logf("sent %d bytes, received %d (%d challenges, %d protocol 1 rejects)", sent, got, challenges, rejects)
	if got > transport.AmplificationLimit*sent {
		t.Errorf("an unvalidated address received %d bytes for %d sent, more than %dx", got, sent, transport.AmplificationLimit)
	}
	if challenges == 0 || rejects == 0 {
		t.Errorf("got %d challenges and %d protocol 1 rejects, want both answered", challenges, rejects)
	}
	st := srv.Stats()
	if st.Gate.Admitted != 0 || st.Joins != 0 || st.Handshaking != 0 {
		t.Errorf("server stats %+v: want no address admitted, no session, no join", st)
	}
}

// TestSpoof_ProtocolOneClientGetsAClearRefusal: a client of protocol 1 knows nothing of the
// connect handshake; it sends its Hello in a bare KCP datagram. It must hear why it cannot
// play: a Reject saying which version the server wants.
func TestSpoof_ProtocolOneClientGetsAClearRefusal(t *testing.T) {
	addr, _ := startServer(t, nil)
	conn := dialLegacy(t, addr)
	if err := conn.send(hello(1)); err != nil {
		t.Fatal(err)
	}
	m, err := conn.recv(5 * time.Second)
	if err != nil {
		t.Fatalf("protocol 1 client heard nothing: %v", err)
	}
	rej := m.GetReject()
	if rej.GetCode() != tankv1.RejectCode_REJECT_CODE_VERSION_MISMATCH || rej.GetReason() != "protocol version 1 not supported (want 2)" {
		t.Errorf("protocol 1 client got %v, want a version mismatch Reject", m)
	}
}

// TestSlots_SingleDatagramSquattersHoldNoSlot: Hellos sent in a bare datagram, as a blind or
// spoofing squatter would, create no session; the server still seats a full house.
func TestSlots_SingleDatagramSquattersHoldNoSlot(t *testing.T) {
	const players = 2
	addr, srv := startServer(t, func(c *server.Config) { c.MaxPlayers = players })
	server, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 13 {
		pc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := pc.WriteTo(kcpPush(uint32(100+i), 0, helloFrame(t, transport.ProtocolVersion)), server); err != nil {
			t.Fatal(err)
		}
		pc.Close()
	}
	for range players {
		r := dialRaw(t, addr)
		r.join()
	}
	if st := srv.Stats(); st.Joins != players || st.Gate.Admitted != players || st.Gate.Unvalidated < 13 {
		t.Errorf("server stats %+v: want exactly the %d honest players admitted and seated, 13 squatters dropped", st, players)
	}
}

// legacyConn is a protocol 1 client: a bare kcp-go session, no connect handshake.
type legacyConn struct {
	sess *kcp.UDPSession
	fr   *transport.FrameReader
}

func dialLegacy(t *testing.T, addr string) *legacyConn {
	t.Helper()
	raddr, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		t.Fatal(err)
	}
	pc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	s, err := kcp.NewConn3(0x5eed, raddr, nil, 0, 0, pc)
	if err != nil {
		t.Fatal(err)
	}
	s.SetNoDelay(1, 10, 2, 1)
	t.Cleanup(func() { s.Close(); pc.Close() })
	return &legacyConn{sess: s, fr: transport.NewFrameReader(s)}
}

func (c *legacyConn) send(m *tankv1.ClientMessage) error {
	f, err := transport.AppendFrame(nil, m)
	if err != nil {
		return err
	}
	_, err = c.sess.Write(f)
	return err
}

func (c *legacyConn) recv(timeout time.Duration) (*tankv1.ServerMessage, error) {
	c.sess.SetReadDeadline(time.Now().Add(timeout))
	m := new(tankv1.ServerMessage)
	return m, c.fr.Read(m)
}
