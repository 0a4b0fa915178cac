package linksim

import (
	"errors"
	"net"
	"testing"
	"time"
)

func TestConditionedConn_CloseLetsWrittenPacketsLeave(t *testing.T) {
	// Three packets written just before Close, each to be delayed 300 ms: Close waits for
	// them, the peer gets all three, and nothing can be written once Close has begun.
	cc, peer := newConditionedUDP(t, Conditions{Outbound: Link{Latency: 300 * time.Millisecond}}, 1)
	for range 3 {
		if _, err := cc.WriteTo([]byte("last words"), peer.LocalAddr()); err != nil {
			t.Fatal(err)
		}
	}
	if n, due := cc.out.pending(); n != 3 || due.IsZero() {
		t.Fatalf("pending() after three writes = %d, %v; want 3 and a due time", n, due)
	}
	if err := cc.Close(); err != nil {
		t.Fatal(err)
	}
	if n, _ := cc.out.pending(); n != 0 {
		t.Errorf("pending() after Close = %d, want 0: Close returned before its packets left", n)
	}
	if _, err := cc.WriteTo([]byte("too late"), peer.LocalAddr()); !errors.Is(err, net.ErrClosed) {
		t.Errorf("WriteTo after Close = %v, want net.ErrClosed", err)
	}
	buf := make([]byte, 32)
	peer.SetReadDeadline(time.Now().Add(waitLimit))
	for i := range 3 {
		n, _, err := peer.ReadFrom(buf)
		if err != nil || string(buf[:n]) != "last words" {
			t.Fatalf("packet %d: %q, %v; want the last words", i+1, buf[:n], err)
		}
	}
}
