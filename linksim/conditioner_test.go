package linksim

import (
	"bytes"
	"fmt"
	"math"
	"net"
	"slices"
	"sync"
	"testing"
	"time"
)

// waitLimit bounds every wait in these tests; nothing should come close to it.
const waitLimit = 10 * time.Second

func TestLinkValidate(t *testing.T) {
	tests := []struct {
		name    string
		link    Link
		wantErr bool
	}{
		{name: "zero", link: Link{}},
		{name: "everything at its limit", link: Link{Latency: MaxLatency, Jitter: MaxLatency, Loss: 1, Duplicate: 1, Reorder: 1}},
		{name: "negative latency", link: Link{Latency: -time.Millisecond}, wantErr: true},
		{name: "latency past the limit", link: Link{Latency: MaxLatency + 1}, wantErr: true},
		{name: "negative jitter", link: Link{Jitter: -time.Millisecond}, wantErr: true},
		{name: "loss above one", link: Link{Loss: 1.5}, wantErr: true},
		{name: "negative duplicate", link: Link{Duplicate: -0.1}, wantErr: true},
		{name: "NaN reorder", link: Link{Reorder: math.NaN()}, wantErr: true},
		{name: "percent instead of fraction", link: Link{Loss: 5}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.link.Validate()
			if (err != nil) != tt.wantErr {
				t.Fatalf("Validate(%+v) = %v, want error: %v", tt.link, err, tt.wantErr)
			}
			cerr := Conditions{Inbound: tt.link}.Validate()
			if (cerr != nil) != tt.wantErr {
				t.Fatalf("Conditions{Inbound: %+v}.Validate() = %v, want error: %v", tt.link, cerr, tt.wantErr)
			}
		})
	}
}

func TestConditionsString(t *testing.T) {
	tests := []struct {
		name string
		c    Conditions
		want string
	}{
		{name: "zero", c: Conditions{}, want: "out 0s, in 0s"},
		{
			name: "one way with everything",
			c: Conditions{Outbound: Link{
				Latency: 50 * time.Millisecond, Jitter: 5 * time.Millisecond,
				Loss: 0.05, Duplicate: 0.015, Reorder: 0.2,
			}},
			want: "out 50ms±5ms loss=5% dup=1.5% reorder=20%, in 0s",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.c.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestConditionRejectsInvalidConditions(t *testing.T) {
	bad := Conditions{Outbound: Link{Loss: 2}}
	if _, err := Condition(listenUDP(t), bad, 1); err == nil {
		t.Fatal("Condition accepted loss 2")
	}
	if _, err := Condition(nil, Conditions{}, 1); err == nil {
		t.Fatal("Condition accepted a nil conn")
	}

	cc, _ := newConditionedUDP(t, Conditions{}, 1)
	good := Symmetric(Link{Latency: 20 * time.Millisecond})
	if err := cc.SetConditions(good); err != nil {
		t.Fatalf("SetConditions(%v) = %v", good, err)
	}
	if err := cc.SetConditions(bad); err == nil {
		t.Fatal("SetConditions accepted loss 2")
	}
	if got := cc.Conditions(); got != good {
		t.Fatalf("after a rejected SetConditions, Conditions() = %v, want %v", got, good)
	}
}

func TestConditionedConnPassesThroughWithZeroConditions(t *testing.T) {
	cc, peer := newConditionedUDP(t, Conditions{}, 1)

	msg := []byte("hello, tank")
	buf := slices.Clone(msg)
	if n, err := cc.WriteTo(buf, peer.LocalAddr()); err != nil || n != len(msg) {
		t.Fatalf("WriteTo = %d, %v, want %d, nil", n, err, len(msg))
	}
	for i := range buf { // kcp-go reuses its buffer as soon as WriteTo returns
		buf[i] = 'x'
	}
	got, from := readWithin(t, peer)
	if !bytes.Equal(got, msg) {
		t.Errorf("peer received %q, want %q", got, msg)
	}
	if from.String() != cc.LocalAddr().String() {
		t.Errorf("peer saw the packet come from %v, want %v", from, cc.LocalAddr())
	}

	reply := []byte("hello back")
	if _, err := peer.WriteTo(reply, cc.LocalAddr()); err != nil {
		t.Fatal(err)
	}
	got, from = readWithin(t, cc)
	if !bytes.Equal(got, reply) {
		t.Errorf("ReadFrom returned %q, want %q", got, reply)
	}
	udp, ok := from.(*net.UDPAddr)
	if !ok || !udp.IP.Equal(peer.LocalAddr().(*net.UDPAddr).IP) || udp.Port != peer.LocalAddr().(*net.UDPAddr).Port {
		t.Errorf("ReadFrom returned address %#v, want the peer's %v", from, peer.LocalAddr())
	}

	waitIdle(t, cc)
	st := cc.Stats()
	want := LinkStats{Offered: 1, Delivered: 1}
	if st.Outbound != want || st.Inbound != want {
		t.Errorf("Stats() = %+v, want %+v each way", st, want)
	}
}

func TestConditionedConnLossAndDuplicate(t *testing.T) {
	const n = 20
	tests := []struct {
		name       string
		cond       Conditions
		outbound   bool // whether cc sends (true) or receives (false)
		wantCopies int  // arrivals per packet sent
		want       LinkStats
	}{
		{name: "outbound loss drops everything", cond: Conditions{Outbound: Link{Loss: 1}}, outbound: true, wantCopies: 0, want: LinkStats{Offered: n, Lost: n}},
		{name: "inbound loss drops everything", cond: Conditions{Inbound: Link{Loss: 1}}, wantCopies: 0, want: LinkStats{Offered: n, Lost: n}},
		{name: "outbound duplicate delivers twice", cond: Conditions{Outbound: Link{Duplicate: 1}}, outbound: true, wantCopies: 2, want: LinkStats{Offered: n, Delivered: 2 * n, Duplicated: n}},
		{name: "inbound duplicate delivers twice", cond: Conditions{Inbound: Link{Duplicate: 1}}, wantCopies: 2, want: LinkStats{Offered: n, Delivered: 2 * n, Duplicated: n}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cc, peer := newConditionedUDP(t, tt.cond, 1)
			var sent [][]byte
			for i := range n {
				sent = append(sent, fmt.Appendf(nil, "packet-%02d", i))
			}
			got := sendThenMarker(t, cc, peer, tt.outbound, sent)

			var want []string
			for _, p := range sent {
				for range tt.wantCopies {
					want = append(want, string(p))
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("received %q, want %q", got, want)
			}
			st := cc.Stats().Inbound
			if tt.outbound {
				st = cc.Stats().Outbound
			}
			tt.want.Offered++ // the marker
			tt.want.Delivered++
			if st != tt.want {
				t.Errorf("stats = %+v, want %+v", st, tt.want)
			}
		})
	}
}

func TestConditionedConnSameSeedSameLosses(t *testing.T) {
	run := func(seed uint64) []string {
		cc, peer := newConditionedUDP(t, Conditions{Outbound: Link{Loss: 0.3, Duplicate: 0.1}}, seed)
		var sent [][]byte
		for i := range 100 {
			sent = append(sent, fmt.Appendf(nil, "packet-%03d", i))
		}
		return sendThenMarker(t, cc, peer, true, sent)
	}
	a, b := run(99), run(99)
	if !slices.Equal(a, b) {
		t.Fatalf("seed 99 delivered\n%q\nthen\n%q", a, b)
	}
	if len(a) == 100 {
		t.Fatal("30% loss lost nothing")
	}
	if c := run(100); slices.Equal(a, c) {
		t.Fatal("seeds 99 and 100 delivered the same packets")
	}
}

func TestConditionedConnDelays(t *testing.T) {
	const latency = 40 * time.Millisecond
	tests := []struct {
		name     string
		cond     Conditions
		outbound bool
	}{
		{name: "outbound", cond: Conditions{Outbound: Link{Latency: latency}}, outbound: true},
		{name: "inbound", cond: Conditions{Inbound: Link{Latency: latency}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cc, peer := newConditionedUDP(t, tt.cond, 1)
			var src, dst net.PacketConn = cc, peer
			if !tt.outbound {
				src, dst = peer, cc
			}
			start := time.Now()
			if _, err := src.WriteTo([]byte("ping"), dst.LocalAddr()); err != nil {
				t.Fatal(err)
			}
			readWithin(t, dst)
			// Timers never fire early, so the lower bound is exact; the upper one is loose.
			if took := time.Since(start); took < latency || took > latency+2*time.Second {
				t.Errorf("packet took %v, want at least %v", took, latency)
			}
		})
	}
}

func TestConditionedConnReorderLetsLaterPacketOvertake(t *testing.T) {
	cc, peer := newConditionedUDP(t, Conditions{Outbound: Link{Latency: 200 * time.Millisecond, Reorder: 1}}, 1)
	start := time.Now()
	if _, err := cc.WriteTo([]byte("held"), peer.LocalAddr()); err != nil {
		t.Fatal(err)
	}
	if err := cc.SetConditions(Conditions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := cc.WriteTo([]byte("quick"), peer.LocalAddr()); err != nil {
		t.Fatal(err)
	}
	first, _ := readWithin(t, peer)
	second, _ := readWithin(t, peer)
	if string(first) != "quick" || string(second) != "held" {
		t.Fatalf("arrival order = [%s %s], want [quick held]", first, second)
	}
	// 200 ms latency plus a hold of half of it.
	if took := time.Since(start); took < 300*time.Millisecond {
		t.Errorf("held packet arrived after %v, want at least 300ms", took)
	}
	if got := cc.Stats().Outbound.Reordered; got != 1 {
		t.Errorf("Reordered = %d, want 1", got)
	}
}

func TestConditionedConnJitterKeepsOrder(t *testing.T) {
	cc, peer := newConditionedUDP(t, Symmetric(Link{Latency: 10 * time.Millisecond, Jitter: 10 * time.Millisecond}), 5)
	const n = 50
	for i := range n {
		if _, err := cc.WriteTo([]byte{byte(i)}, peer.LocalAddr()); err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		got, _ := readWithin(t, peer)
		if got[0] != byte(i) {
			t.Fatalf("arrival %d is packet %d", i, got[0])
		}
	}
}

func TestConditionedConnInboundOverflow(t *testing.T) {
	mem := newMemConn()
	cc, err := Condition(mem, Conditions{Inbound: Link{Latency: MaxLatency}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	const extra = 10
	for range MaxQueuedPackets + extra {
		mem.in <- memPacket{data: []byte("x"), addr: memAddr("peer")}
	}
	waitFor(t, "every packet offered", func() bool { return cc.Stats().Inbound.Offered == MaxQueuedPackets+extra })
	cc.Close() // waits for the reader to finish with the last packet
	if got := cc.Stats().Inbound.Overflowed; got != extra {
		t.Fatalf("Overflowed = %d, want %d", got, extra)
	}
}

func TestConditionedConnConcurrentUse(t *testing.T) {
	cc, peer := newConditionedUDP(t, Symmetric(Link{Jitter: time.Millisecond, Loss: 0.1, Duplicate: 0.1, Reorder: 0.1}), 3)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				if _, err := cc.WriteTo([]byte{byte(w), byte(i)}, peer.LocalAddr()); err != nil {
					t.Error(err)
					return
				}
				if i%10 == 0 {
					_ = cc.SetConditions(Symmetric(Link{Loss: float64(i) / 100}))
					_ = cc.Stats()
				}
			}
		}()
	}
	wg.Wait()
	waitIdle(t, cc)
	if got := cc.Stats().Outbound.Offered; got != 200 {
		t.Fatalf("Offered = %d, want 200", got)
	}
}
