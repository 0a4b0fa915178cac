package transport

import (
	"net"
	"net/netip"
	"testing"
	"time"
)

// A flood of ConnectRequests from spoofed sources in 256 prefixes at 100,000 a second of
// gate time, ten times the whole budget, for 5 s. An honest client asking twice a second
// from a prefix of its own gets every Challenge it asks for, and so do 100 clients joining
// at once from prefixes of their own; the flood gets no more than the budget.
func TestFairShare_SpoofedFloodCannotStarveHonestPrefixes(t *testing.T) {
	sc := new(scriptConn)
	g := newGate(sc, DefaultChallengesPerSecond, nil)
	now := time.Second
	g.clock = func() time.Duration { return now }
	honest := &net.UDPAddr{IP: net.IPv4(192, 0, 2, 7), Port: 5000}
	newcomer := func(k int) *net.UDPAddr { return &net.UDPAddr{IP: net.IPv4(198, 18, byte(k), 1), Port: 5000} }
	request := appendConnectRequest(nil)
	const seconds, batch = 5, 100 // 100 datagrams a millisecond
	asked := 0
	for ms := range seconds * 1000 {
		for j := range batch {
			i := ms*batch + j
			sc.queue(request, &net.UDPAddr{IP: net.IPv4(10, 1, byte(i%256), byte(i/256)), Port: 1024 + i%5000})
		}
		if ms%500 == 250 {
			sc.queue(request, honest)
			asked++
		}
		if ms == 2500 {
			for k := range 100 {
				sc.queue(request, newcomer(k))
			}
		}
		readAll(g)
		now += time.Millisecond
	}
	toHonest, toNewcomers, toFlood := 0, 0, 0
	for _, d := range sc.takeSent() {
		switch ip := d.addr.(*net.UDPAddr).IP; {
		case ip.Equal(honest.IP):
			toHonest++
		case ip[len(ip)-4] == 198:
			toNewcomers++
		default:
			toFlood++
		}
	}
	if toHonest != asked || toNewcomers != 100 {
		t.Errorf("during the flood the honest client got %d Challenges for %d requests, the 100 newcomers %d", toHonest, asked, toNewcomers)
	}
	if most := seconds*DefaultChallengesPerSecond + 256*prefixBurst; toFlood > most {
		t.Errorf("the flood got %d Challenges in %d s, more than the budget (%d)", toFlood, seconds, most)
	}
	t.Logf("flood: %d requests, %d Challenges; honest: %d of %d; newcomers %d of 100", seconds*1000*batch, toFlood, toHonest, asked, toNewcomers)
}

// Prefixes group sources by /24 and /64; a mapped IPv4 address groups with its IPv4 form.
func TestFairShare_SourcePrefix(t *testing.T) {
	for _, tt := range []struct{ addr, want string }{
		{"192.0.2.7", "192.0.2.0/24"},
		{"::ffff:192.0.2.200", "192.0.2.0/24"},
		{"2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"},
	} {
		if got := sourcePrefix(netip.MustParseAddr(tt.addr)).String(); got != tt.want {
			t.Errorf("sourcePrefix(%s) = %s, want %s", tt.addr, got, tt.want)
		}
	}
}

// Over time each busy prefix refills at an equal share of the budget, and a prefix that
// went quiet is forgotten, so the share grows for those still asking.
func TestFairShare_BusyPrefixesSplitTheRate(t *testing.T) {
	s := newChallengeShare(1000)
	a, b := netip.MustParseAddr("10.0.0.1"), netip.MustParseAddr("10.0.1.1")
	got := map[netip.Addr]int{}
	for ms := range 2000 { // 2 s, both asking every millisecond
		now := time.Duration(ms) * time.Millisecond
		for _, addr := range []netip.Addr{a, b} {
			if s.take(addr, now) {
				got[addr]++
			}
		}
	}
	// Each: its burst plus a third of 1000 a second (a, b and the overflow bucket) for 2 s.
	for _, addr := range []netip.Addr{a, b} {
		if want := prefixBurst + 2*1000/3; got[addr] < want-2 || got[addr] > want+2 {
			t.Errorf("%v got %d Challenges in 2 s, want about %d", addr, got[addr], want)
		}
	}
	s.sweep(10 * time.Second)
	if len(s.prefixes) != 0 {
		t.Errorf("%d prefixes remembered after 8 s of quiet, want none", len(s.prefixes))
	}
}
