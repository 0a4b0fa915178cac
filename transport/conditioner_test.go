package transport

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net"
	"runtime"
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

func TestDecide(t *testing.T) {
	tests := []struct {
		name string
		link Link
		want verdict
	}{
		{name: "perfect link passes at once", link: Link{}, want: verdict{}},
		{name: "latency only", link: Link{Latency: 30 * time.Millisecond}, want: verdict{delay: 30 * time.Millisecond}},
		{name: "certain loss drops", link: Link{Latency: 30 * time.Millisecond, Loss: 1, Duplicate: 1}, want: verdict{drop: true}},
		{name: "certain duplicate", link: Link{Latency: 5 * time.Millisecond, Duplicate: 1}, want: verdict{duplicate: true, delay: 5 * time.Millisecond}},
		{
			name: "reorder holds back by half the latency",
			link: Link{Latency: 100 * time.Millisecond, Reorder: 1},
			want: verdict{reordered: true, delay: 150 * time.Millisecond},
		},
		{
			name: "reorder holds back at least the minimum",
			link: Link{Reorder: 1},
			want: verdict{reordered: true, delay: minReorderHold},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			for i := range 100 {
				if got := decide(tt.link, rng); got != tt.want {
					t.Fatalf("packet %d: decide(%v) = %+v, want %+v", i, tt.link, got, tt.want)
				}
			}
		})
	}
}

func TestDecideJitterStaysInRange(t *testing.T) {
	tests := []struct {
		name     string
		link     Link
		min, max time.Duration
	}{
		{name: "jitter below latency", link: Link{Latency: 50 * time.Millisecond, Jitter: 10 * time.Millisecond}, min: 40 * time.Millisecond, max: 60 * time.Millisecond},
		{name: "jitter above latency never goes negative", link: Link{Latency: 10 * time.Millisecond, Jitter: 30 * time.Millisecond}, min: 0, max: 40 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, 7))
			lo, hi := time.Duration(math.MaxInt64), time.Duration(0)
			for range 10000 {
				d := decide(tt.link, rng).delay
				lo, hi = min(lo, d), max(hi, d)
			}
			if lo < tt.min || hi > tt.max {
				t.Fatalf("delays span [%v, %v], want within [%v, %v]", lo, hi, tt.min, tt.max)
			}
			// The whole range is used: both ends come within 1 ms.
			if lo > tt.min+time.Millisecond || hi < tt.max-time.Millisecond {
				t.Fatalf("delays span [%v, %v], want close to [%v, %v]", lo, hi, tt.min, tt.max)
			}
		})
	}
}

func TestDecideRatesMatchProbabilities(t *testing.T) {
	link := Link{Loss: 0.2, Duplicate: 0.1, Reorder: 0.05}
	rng := rand.New(rand.NewPCG(11, 3))
	const n = 20000
	var drops, dups, reorders, survivors int
	for range n {
		v := decide(link, rng)
		if v.drop {
			drops++
			continue
		}
		survivors++
		if v.duplicate {
			dups++
		}
		if v.reordered {
			reorders++
		}
	}
	for _, r := range []struct {
		name      string
		got, want float64
	}{
		{"loss", float64(drops) / n, link.Loss},
		{"duplicate", float64(dups) / float64(survivors), link.Duplicate},
		{"reorder", float64(reorders) / float64(survivors), link.Reorder},
	} {
		// Over 5 standard deviations at these sizes; the seed is fixed, so this never flakes.
		if math.Abs(r.got-r.want) > 0.015 {
			t.Errorf("%s rate = %.4f, want %.2f ± 0.015", r.name, r.got, r.want)
		}
	}
}

func TestDecideIsReproducible(t *testing.T) {
	link := Link{Latency: 50 * time.Millisecond, Jitter: 20 * time.Millisecond, Loss: 0.2, Duplicate: 0.1, Reorder: 0.1}
	decisions := func(l Link, seed uint64) []verdict {
		rng := rand.New(rand.NewPCG(seed, outboundStream))
		out := make([]verdict, 1000)
		for i := range out {
			out[i] = decide(l, rng)
		}
		return out
	}
	fates := func(vs []verdict) []verdict { // decisions without their delays
		out := slices.Clone(vs)
		for i := range out {
			out[i].delay = 0
		}
		return out
	}

	a := decisions(link, 42)
	if b := decisions(link, 42); !slices.Equal(a, b) {
		t.Fatal("the same seed gave different decisions")
	}
	if c := decisions(link, 43); slices.Equal(a, c) {
		t.Fatal("different seeds gave identical decisions")
	}
	slower := link
	slower.Latency = 200 * time.Millisecond
	if d := decisions(slower, 42); !slices.Equal(fates(a), fates(d)) {
		t.Fatal("changing only the latency changed which packets are lost, duplicated or reordered")
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

func TestConditionedConnReadDeadline(t *testing.T) {
	tests := []struct {
		name     string
		deadline time.Duration // from now
	}{
		{name: "deadline in the past", deadline: -time.Second},
		{name: "deadline now", deadline: 0},
		{name: "short deadline", deadline: 20 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cc, peer := newConditionedUDP(t, Conditions{}, 1)
			start := time.Now()
			if err := cc.SetReadDeadline(start.Add(tt.deadline)); err != nil {
				t.Fatal(err)
			}
			_, _, err := cc.ReadFrom(make([]byte, 16))
			assertTimeout(t, err)
			if took := time.Since(start); took < tt.deadline {
				t.Errorf("ReadFrom gave up after %v, before the %v deadline", took, tt.deadline)
			}

			// Clearing the deadline makes ReadFrom work again.
			if err := cc.SetReadDeadline(time.Time{}); err != nil {
				t.Fatal(err)
			}
			if _, err := peer.WriteTo([]byte("late"), cc.LocalAddr()); err != nil {
				t.Fatal(err)
			}
			if got, _ := readWithin(t, cc); string(got) != "late" {
				t.Errorf("ReadFrom after clearing the deadline = %q, want %q", got, "late")
			}
		})
	}
}

func TestConditionedConnDeadlineUnblocksPendingRead(t *testing.T) {
	cc, _ := newConditionedUDP(t, Conditions{}, 1)
	errc := make(chan error, 1)
	go func() {
		_, _, err := cc.ReadFrom(make([]byte, 16))
		errc <- err
	}()
	if err := cc.SetReadDeadline(time.Now()); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-errc:
		assertTimeout(t, err)
	case <-time.After(waitLimit):
		t.Fatal("a blocked ReadFrom ignored SetReadDeadline")
	}
}

func TestConditionedConnWriteDeadline(t *testing.T) {
	cc, peer := newConditionedUDP(t, Conditions{}, 1)
	if err := cc.SetWriteDeadline(time.Now().Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	_, err := cc.WriteTo([]byte("x"), peer.LocalAddr())
	assertTimeout(t, err)
	if err := cc.SetDeadline(time.Time{}); err != nil {
		t.Fatal(err)
	}
	if _, err := cc.WriteTo([]byte("x"), peer.LocalAddr()); err != nil {
		t.Fatalf("WriteTo after clearing the deadline: %v", err)
	}
}

func TestConditionedConnClose(t *testing.T) {
	cc, peer := newConditionedUDP(t, Symmetric(Link{Latency: time.Second}), 1)
	if _, err := cc.WriteTo([]byte("never delivered"), peer.LocalAddr()); err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() {
		_, _, err := cc.ReadFrom(make([]byte, 16))
		errc <- err
	}()
	if err := cc.Close(); err != nil {
		t.Fatalf("Close() = %v", err)
	}
	select {
	case err := <-errc:
		if !errors.Is(err, net.ErrClosed) {
			t.Errorf("blocked ReadFrom returned %v, want net.ErrClosed", err)
		}
	case <-time.After(waitLimit):
		t.Fatal("Close did not unblock ReadFrom")
	}

	if _, _, err := cc.ReadFrom(make([]byte, 16)); !errors.Is(err, net.ErrClosed) {
		t.Errorf("ReadFrom after Close = %v, want net.ErrClosed", err)
	}
	if _, err := cc.WriteTo([]byte("x"), peer.LocalAddr()); !errors.Is(err, net.ErrClosed) {
		t.Errorf("WriteTo after Close = %v, want net.ErrClosed", err)
	}
	if err := cc.SetReadDeadline(time.Now()); !errors.Is(err, net.ErrClosed) {
		t.Errorf("SetReadDeadline after Close = %v, want net.ErrClosed", err)
	}
	if err := cc.Close(); !errors.Is(err, net.ErrClosed) {
		t.Errorf("second Close() = %v, want net.ErrClosed", err)
	}
}

func TestConditionedConnCloseLeaksNoGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	for range 5 {
		cc, peer := newConditionedUDP(t, Symmetric(Link{Latency: time.Second, Jitter: time.Millisecond}), 1)
		for range 10 {
			if _, err := cc.WriteTo([]byte("pending"), peer.LocalAddr()); err != nil {
				t.Fatal(err)
			}
			if _, err := peer.WriteTo([]byte("pending"), cc.LocalAddr()); err != nil {
				t.Fatal(err)
			}
		}
		if err := cc.SetReadDeadline(time.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if err := cc.Close(); err != nil {
			t.Fatal(err)
		}
	}
	// Close waits for its own goroutines; allow a moment for unrelated runtime ones.
	after := runtime.NumGoroutine()
	for limit := time.Now().Add(waitLimit); after > before && time.Now().Before(limit); {
		time.Sleep(10 * time.Millisecond)
		after = runtime.NumGoroutine()
	}
	if after > before {
		t.Fatalf("%d goroutines before, %d after closing every conn", before, after)
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

func BenchmarkConditionedConn(b *testing.B) {
	payload := make([]byte, 200) // about one snapshot
	const batch = 64             // well under MaxQueuedPackets

	b.Run("WriteTo", func(b *testing.B) {
		mem := newMemConn()
		cc, err := Condition(mem, Conditions{}, 1)
		if err != nil {
			b.Fatal(err)
		}
		defer cc.Close()
		b.SetBytes(int64(len(payload)))
		b.ReportAllocs()
		for sent := 0; sent < b.N; {
			k := min(batch, b.N-sent)
			for range k {
				if _, err := cc.WriteTo(payload, memAddr("peer")); err != nil {
					b.Fatal(err)
				}
			}
			for range k {
				<-mem.out
			}
			sent += k
		}
	})

	b.Run("ReadFrom", func(b *testing.B) {
		mem := newMemConn()
		cc, err := Condition(mem, Conditions{}, 1)
		if err != nil {
			b.Fatal(err)
		}
		defer cc.Close()
		buf := make([]byte, 2048)
		b.SetBytes(int64(len(payload)))
		b.ReportAllocs()
		for got := 0; got < b.N; {
			k := min(batch, b.N-got)
			for range k {
				mem.in <- memPacket{data: payload, addr: memAddr("peer")}
			}
			for range k {
				if _, _, err := cc.ReadFrom(buf); err != nil {
					b.Fatal(err)
				}
			}
			got += k
		}
	})
}

// listenUDP opens a loopback UDP socket that the test closes.
