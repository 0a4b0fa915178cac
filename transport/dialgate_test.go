package transport

import (
	"testing"
)

// TestDialGate_AnotherConversationIsNoAdmission: before the server has admitted us, a KCP
// datagram of another conversation from the server's address (the server still answering
// an earlier client that had our port, which the system has given us again) is dropped and
// proves nothing: we go on wrapping our datagrams with the cookie, so the server can still
// admit us. One of our own conversation then admits us.
func TestDialGate_AnotherConversationIsNoAdmission(t *testing.T) {
	sc := new(scriptConn)
	server := clientAddr // the address the dialer talks to
	d := &dialGate{PacketConn: sc, server: server, conv: 11}
	mine := testPush(11, 0, []byte("hello"))

	sc.queue(testPush(99, 5, []byte("an earlier client's")), server)
	buf := make([]byte, 4096)
	if n, _, err := d.ReadFrom(buf); err == nil {
		t.Errorf("passed up %x, a datagram of conversation 99, to conversation 11's kcp-go", buf[:n])
	}
	if d.admitted() {
		t.Fatal("another conversation's datagram counted as our admission")
	}
	if _, err := d.WriteTo(mine, server); err != nil {
		t.Fatal(err)
	}
	sent := sc.takeSent()
	if len(sent) != 1 {
		t.Fatalf("sent %d datagrams, want 1", len(sent))
	}
	if kind, _, err := connectKind(sent[0].b); err != nil || kind != kindConnectResponse {
		t.Errorf("after another conversation's datagram we sent %x bare; want it still wrapped in a ConnectResponse", sent[0].b)
	}

	sc.queue(testPush(11, 0, []byte("welcome")), server)
	if _, _, err := d.ReadFrom(buf); err != nil {
		t.Fatalf("our own conversation's datagram: %v", err)
	}
	if !d.admitted() {
		t.Error("a datagram of our own conversation did not admit us")
	}
	if _, err := d.WriteTo(mine, server); err != nil {
		t.Fatal(err)
	}
	if sent := sc.takeSent(); len(sent) != 1 || string(sent[0].b) != string(mine) {
		t.Errorf("once admitted we sent %v; want the bare datagram %x", sent, mine)
	}
}
