//go:build !js

package carriage

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// bystander is a UDP socket that never sends a byte: an address an attacker names in its
// offers. It counts the datagrams and bytes that reach it.
type bystander struct {
	conn              net.PacketConn
	datagrams, octets atomic.Int64
}

// newBystanders returns n bystanders on loopback, closed when t ends.
func newBystanders(t *testing.T, n int) []*bystander {
	t.Helper()
	var out []*bystander
	for range n {
		c, err := net.ListenPacket("udp4", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		b := &bystander{conn: c}
		t.Cleanup(func() { c.Close() })
		go func() {
			buf := make([]byte, 2048)
			for {
				n, _, err := c.ReadFrom(buf)
				if err != nil {
					return
				}
				b.datagrams.Add(1)
				b.octets.Add(int64(n))
			}
		}()
		out = append(out, b)
	}
	return out
}

// nameBystanders returns sdp with a host candidate for each bystander added to its data
// channel's section (after its last attribute line), and, when keepOwn is false, its own
// candidates removed: the offer points the server at sockets that never asked for anything.
func nameBystanders(sdp string, bs []*bystander, keepOwn bool) string {
	var lines []string
	for _, line := range strings.SplitAfter(sdp, "\n") {
		if !keepOwn && strings.HasPrefix(line, "a=candidate:") {
			continue
		}
		lines = append(lines, line)
	}
	for i, b := range bs {
		port := b.conn.LocalAddr().(*net.UDPAddr).Port
		lines = append(lines, fmt.Sprintf("a=candidate:%d 1 udp %d 127.0.0.1 %d typ host\r\n", 900+i, 2130706431-i, port))
	}
	return strings.Join(lines, "")
}

// TestOffer_NamedCandidatesGetNothing: offers that name other sockets as their candidates
// bring those sockets nothing. One offer names only bystanders and never starts ICE; another
// names bystanders beside its own candidates and connects. The server must not run
// connectivity checks toward candidates that never sent it a check (PROTOCOL.md §1.9), so
// while the honest peer connects and trades datagrams, and for a while after, every
// bystander receives 0 bytes.
func TestOffer_NamedCandidatesGetNothing(t *testing.T) {
	th := startHub(t, DefaultHubConfig())
	bs := newBystanders(t, 8)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	// The attacker's offer: only bystanders, and nobody behind it ever sends a check.
	silent := gatheredOffer(t, channelInit())
	if _, err := postOffer(ctx, th.url, sessionDescription{Type: "offer", SDP: nameBystanders(silent.LocalDescription().SDP, bs[:4], false)}); err != nil {
		t.Fatalf("the offer naming only bystanders: %v", err)
	}

	// An offer that names bystanders beside its own candidates, from a peer that connects.
	pc := loopbackPeer(t)
	dc, err := pc.CreateDataChannel(Label, channelInit())
	if err != nil {
		t.Fatal(err)
	}
	opened := make(chan struct{})
	dc.OnOpen(func() { close(opened) })
	gather(t, pc)
	offerAndAnswer(t, th, pc, nameBystanders(pc.LocalDescription().SDP, bs[4:], true))
	select {
	case <-opened:
	case <-ctx.Done():
		t.Fatal("the honest peer's channel never opened")
	}
	// Trade datagrams for a while: a server running full ICE has by now sent several
	// rounds of checks to every candidate it was handed (one pair every 50 ms or so).
	buf := make([]byte, 64)
	th.SetReadDeadline(time.Now().Add(20 * time.Second))
	for i := range 20 {
		if err := dc.Send([]byte{byte(i)}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := th.ReadFrom(buf); err != nil {
			t.Fatalf("the hub read nothing from the honest peer: %v", err)
		}
		time.Sleep(50 * time.Millisecond) // the window the bystanders are watched over
	}
	for i, b := range bs {
		if n := b.octets.Load(); n != 0 {
			t.Errorf("bystander %d (%s) received %d datagrams, %d bytes; want none", i, b.conn.LocalAddr(), b.datagrams.Load(), n)
		}
	}
}
