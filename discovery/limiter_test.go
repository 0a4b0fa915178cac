package discovery

import (
	"net"
	"net/netip"
	"testing"
	"time"
)

// TestLimiter steps a limiter through synthetic time: each source has its burst and its
// refill, an IPv6 source is limited by its /64, the total caps them all, and a full table
// takes a new source only once a tracked one has refilled.
func TestLimiter(t *testing.T) {
	t0 := time.Unix(1000, 0)
	a, b := netip.MustParseAddr("10.0.0.1"), netip.MustParseAddr("10.0.0.2")
	v6a, v6b := netip.MustParseAddr("2001:db8::1"), netip.MustParseAddr("2001:db8::ffff")
	l := newLimiter(Limits{Burst: 2, PerSecond: 1, Sources: 3, TotalPerSecond: 5}, t0)
	steps := []struct {
		name string
		src  netip.Addr
		at   time.Duration
		want bool
	}{
		{"a's burst 1", a, 0, true},
		{"a's burst 2", a, 0, true},
		{"a is out", a, 0, false},
		{"b has its own", b, 0, true},
		{"b's second", b, 0, true},
		{"a refilled one after 1 s", a, time.Second, true},
		{"a is out again", a, time.Second, false},
		{"an IPv6 host", v6a, time.Second, true},
		{"its /64 shares the bucket", v6b, time.Second, true},
		{"the /64 is out", v6a, time.Second, false},
		{"a fourth source, table full", netip.MustParseAddr("10.0.0.4"), time.Second, false},
		{"a fourth source once the others refilled", netip.MustParseAddr("10.0.0.4"), 10 * time.Second, true},
	}
	for _, s := range steps {
		if got := l.allow(s.src, t0.Add(s.at)); got != s.want {
			t.Errorf("%s: allow(%v, +%v) = %v, want %v", s.name, s.src, s.at, got, s.want)
		}
	}
	total := newLimiter(Limits{Burst: 10, PerSecond: 10, Sources: 10, TotalPerSecond: 3}, t0)
	for i, want := range []bool{true, true, true, false} {
		if got := total.allow(netip.AddrFrom4([4]byte{10, 0, 1, byte(i)}), t0); got != want {
			t.Errorf("total of 3: source %d allowed %v, want %v", i, got, want)
		}
	}
	if !total.allow(b, t0.Add(time.Second)) {
		t.Errorf("total of 3 a second: refused after a second, want refilled")
	}
}

// TestResponder_RateLimitPerSource: a source that asks 40 times at once gets its burst
// answered and the rest refused, while another source still gets its answer.
func TestResponder_RateLimitPerSource(t *testing.T) {
	cfg := DefaultResponderConfig()
	cfg.Limits = Limits{Burst: 4, PerSecond: 0.001, Sources: 16, TotalPerSecond: 1000} // no refill within the test
	rs, _ := servers(t, func() (net.PacketConn, error) { return net.ListenPacket("udp4", "127.0.0.1:0") }, sample(), cfg, 0xd1)
	flood, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer flood.Close()
	other, err := net.ListenPacket("udp4", "127.0.0.2:0") // another source on the loopback network
	if err != nil {
		t.Skipf("no second loopback address to ask from: %v", err)
	}
	defer other.Close()
	to := rs[0].Addr()
	const asks = 40
	for i := range asks {
		req, _ := AppendRequest(nil, uint32(i), MinRequest)
		if _, err := flood.WriteTo(req, to); err != nil {
			t.Fatal(err)
		}
		if i%10 == 9 { // a round trip now and then, so no burst overflows a socket buffer
			if ask(t, other, to, uint32(100+i), MinRequest) == nil {
				t.Fatalf("the other source got no answer after %d of the flood's requests", i+1)
			}
		}
	}
	// The other source's last answer came after every flood request was read.
	if got := rs[0].Stats(); got.Answered != 4+asks/10 || got.Limited != asks-4 {
		t.Errorf("Stats = %+v, want %d answered (the flood's burst and the other's) and %d limited", got, 4+asks/10, asks-4)
	}
	for i := range 4 {
		if readAnswer(t, flood, uint32(i)) == nil {
			t.Errorf("the flood's request %d got no answer, want its burst of 4 answered", i)
		}
	}
}
