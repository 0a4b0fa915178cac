package transport

import (
	"testing"
	"time"

	"tanknet/linksim"
	tankv1 "tanknet/proto/tank/v1"
)

// TestClose_LastMessageCrossesASlowLink: a Goodbye sent just before Close, from behind a
// conditioner that delays it a second (twice CloseLinger), still reaches the server: the
// conditioner lets it go before it closes, as a real socket's packet would already be on
// the wire.
func TestClose_LastMessageCrossesASlowLink(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a real KCP session on loopback")
	}
	p := newConnPair(t, defaultFEC, &linksim.Conditions{Outbound: linksim.Link{Latency: 2 * CloseLinger}})
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

// TestWaitLingering_OutlastsTheLastPacket: WaitLingering returns only once a closed Conn's
// socket is closed, after CloseLinger and after its conditioner let the last packet leave
// (here a second after it was sent), so a program that calls it before exiting does not take
// its Goodbye down with it.
func TestWaitLingering_OutlastsTheLastPacket(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a real KCP session on loopback")
	}
	p := newConnPair(t, defaultFEC, &linksim.Conditions{Outbound: linksim.Link{Latency: 2 * CloseLinger}})
	bye := &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Goodbye{Goodbye: &tankv1.Goodbye{Reason: "done"}}}
	sent := time.Now()
	if err := p.client.Send(bye); err != nil {
		t.Fatal(err)
	}
	if err := p.client.Close(); err != nil {
		t.Fatal(err)
	}
	if !WaitLingering(waitLimit) {
		t.Fatalf("WaitLingering(%v) = false: the socket did not close", waitLimit)
	}
	if waited := time.Since(sent); waited < 2*CloseLinger {
		t.Errorf("WaitLingering returned %v after the Goodbye was sent, before its packet could leave (%v on the link)", waited, 2*CloseLinger)
	}
	var got tankv1.ClientMessage
	if err := p.server.Recv(&got, waitLimit); err != nil || got.GetGoodbye().GetReason() != "done" {
		t.Errorf("the server received %v (%v), want the Goodbye", &got, err)
	}
}
