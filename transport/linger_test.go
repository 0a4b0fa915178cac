package transport

import (
	"testing"
	"time"

	tankv1 "tanknet/proto/tank/v1"
)

// TestClose_LastMessageCrossesASlowLink: a Goodbye sent just before Close, from behind a
// conditioner that delays it a second (twice CloseLinger), still reaches the server: the
// socket stays open until the conditioner has let it go, as a real socket's packet would
// already be on the wire.
func TestClose_LastMessageCrossesASlowLink(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a real KCP session on loopback")
	}
	p := newConnPair(t, defaultFEC, &Conditions{Outbound: Link{Latency: 2 * CloseLinger}})
	bye := &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Goodbye{Goodbye: &tankv1.Goodbye{Reason: "done"}}}
	if err := p.client.Send(bye); err != nil {
		t.Fatal(err)
	}
	if err := p.client.Close(); err != nil {
		t.Fatal(err)
	}
	var got tankv1.ClientMessage
	if err := p.server.Recv(&got, waitLimit); err != nil {
		t.Fatalf("the Goodbye sent before Close never arrived: %v", err)
	}
	if got.GetGoodbye().GetReason() != "done" {
		t.Errorf("received %v, want the Goodbye", &got)
	}
}

func TestConditionedConn_UnsentCountsWhatCloseWouldDiscard(t *testing.T) {
	cc, peer := newConditionedUDP(t, Conditions{Outbound: Link{Latency: MaxLatency}}, 1)
	if n, due := cc.Unsent(); n != 0 || !due.IsZero() {
		t.Fatalf("Unsent() before any write = %d, %v; want 0 and the zero time", n, due)
	}
	before := time.Now()
	for range 3 {
		if _, err := cc.WriteTo([]byte("held"), peer.LocalAddr()); err != nil {
			t.Fatal(err)
		}
	}
	n, due := cc.Unsent()
	if n != 3 || due.Before(before.Add(MaxLatency)) {
		t.Errorf("Unsent() after three writes delayed %v = %d, %v; want 3, due at least %v", MaxLatency, n, due, before.Add(MaxLatency))
	}
	// Nothing waits once the link lets packets straight through.
	fast, peer2 := newConditionedUDP(t, Conditions{}, 2)
	if _, err := fast.WriteTo([]byte("through"), peer2.LocalAddr()); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	peer2.SetReadDeadline(time.Now().Add(waitLimit))
	if _, _, err := peer2.ReadFrom(buf); err != nil {
		t.Fatal(err)
	}
	// The lane counts the packet sent once the socket's WriteTo has returned, which may
	// be a moment after the peer reads it: wait for that, a bounded number of times.
	n = -1
	for range 1000 {
		if n, _ = fast.Unsent(); n == 0 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if n != 0 {
		t.Errorf("Unsent() after the packet arrived = %d, want 0", n)
	}
}
