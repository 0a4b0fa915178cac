package transport

import (
	"net"
	"testing"

	"google.golang.org/protobuf/proto"
)

// FuzzConnectDatagram feeds one datagram of any bytes to both sides of address validation:
// the server's gate, from an address it has not admitted and from one it has, and the
// client's dialGate, as if the server had sent it. Nothing may panic, nothing may pass up
// from an unadmitted address unless a valid cookie came with it (a fuzzer cannot forge
// one), and no address that has not proved itself may get more than AmplificationLimit
// times the bytes it sent.
func FuzzConnectDatagram(f *testing.F) {
	f.Add(appendConnectRequest(nil))
	f.Add(appendChallenge(nil, cookie{1, 2, 3}))
	f.Add(appendConnectResponse(nil, cookie{}, testPush(7, 0, []byte("hello"))))
	f.Add(testPush(7, 0, nil))
	f.Add(testPush(8, 0, mustFrame(f, cHello(1, "ada"))))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xf3, 0, 6, 0, 9, 0, 0, 0})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xf1, 0, 30, 0})
	f.Add([]byte("TNK!\xe1"))
	f.Fuzz(func(t *testing.T, b []byte) {
		sc := new(scriptConn)
		g := newGate(sc, DefaultChallengesPerSecond, answerAnything)
		admitClient(t, sc, g, 7)

		sc.queue(b, otherAddr)
		if up := readAll(g); len(up) != 0 {
			t.Fatalf("%x from an unadmitted address passed up %x", b, up)
		}
		for _, s := range sc.takeSent() {
			if len(s.b) > AmplificationLimit*len(b) {
				t.Fatalf("%d bytes from an unadmitted address drew a %d-byte reply", len(b), len(s.b))
			}
		}
		sc.queue(b, clientAddr)
		for _, up := range readAll(g) {
			if conv, ok := datagramConv(up); ok && conv != 7 {
				t.Fatalf("%x passed up for conversation %d, want only the admitted 7", up, conv)
			}
		}

		d := &dialGate{PacketConn: sc, server: clientAddr}
		sc.queue(b, clientAddr)
		buf := make([]byte, 4096)
		if n, _, err := d.ReadFrom(buf); err == nil {
			if _, _, err := connectKind(buf[:n]); err == nil {
				t.Fatalf("dialGate passed a handshake datagram %x up to kcp-go", buf[:n])
			}
		}
		var w ackWatch
		w.sent(b, 0)
		w.received(b, 1)
		if w.stall(2) < 0 {
			t.Fatal("negative stall")
		}
	})
}

// answerAnything stands in for the message layer's answer to a protocol 1 client: a reply
// three times the size of what it read, so the gate's amplification limit is what keeps it
// small.
func answerAnything(payload []byte) []byte { return make([]byte, 3*len(payload)+16) }

func mustFrame(tb testing.TB, m proto.Message) []byte {
	b, err := AppendFrame(nil, m)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

var _ net.PacketConn = (*scriptConn)(nil)
