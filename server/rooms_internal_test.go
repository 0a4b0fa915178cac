package server

import (
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"tanknet/netcode"
)

func TestRoomName(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{"", DefaultRoom, ""},
		{"default", DefaultRoom, ""},
		{"Class-7_b", "Class-7_b", ""},
		{strings.Repeat("r", maxRoomName), strings.Repeat("r", maxRoomName), ""},
		{strings.Repeat("r", maxRoomName+1), "", "33 bytes"},
		{"a/b", "", "0x2f at 1"},
		{"room\x00", "", "0x00 at 4"},
	} {
		got, err := roomName(c.in)
		if got != c.want || (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("roomName(%q) = %q, %v; want %q and an error saying %q", c.in, got, err, c.want, c.err)
		}
	}
}

// TestOpenLimiter: each address has its own bucket of burst openings, refilled one per
// interval; a full table of busy addresses refuses newcomers rather than growing.
func TestOpenLimiter(t *testing.T) {
	var l openLimiter
	a, b := netip.MustParseAddr("192.0.2.1"), netip.MustParseAddr("192.0.2.2")
	t0 := time.Unix(1000, 0)
	for i, want := range []bool{true, true, false} {
		if got := l.allow(a, t0, 2, time.Second); got != want {
			t.Errorf("opening %d at once: %v, want %v", i+1, got, want)
		}
	}
	if !l.allow(b, t0, 2, time.Second) {
		t.Error("another address was refused its first opening")
	}
	if l.allow(a, t0.Add(900*time.Millisecond), 2, time.Second) {
		t.Error("allowed again before the interval passed")
	}
	if !l.allow(a, t0.Add(2*time.Second), 2, time.Second) {
		t.Error("refused after the interval passed")
	}

	var full openLimiter
	for i := range maxOpeners {
		full.allow(netip.AddrFrom4([4]byte{10, 0, byte(i >> 8), byte(i)}), t0, 1, time.Hour)
	}
	if full.allow(netip.MustParseAddr("192.0.2.9"), t0, 1, time.Hour) {
		t.Error("a new address was let in past a full table of addresses that are all still waiting")
	}
	if !full.allow(netip.MustParseAddr("192.0.2.9"), t0.Add(time.Hour), 1, time.Hour) || len(full.by) > maxOpeners {
		t.Errorf("once the table's buckets are full again a newcomer gets in and the table stays bounded (%d entries)", len(full.by))
	}
}

// TestInputLead_IsWhatClientsKeepFor: a client keeps netcode.DefaultInputLead inputs plus
// those whose acknowledgement is on its way back (netcode.DefaultLocalConfig); the default
// server accepts exactly that lead, so no input it may apply is one a client forgot.
func TestInputLead_IsWhatClientsKeepFor(t *testing.T) {
	cfg := DefaultConfig()
	if got := cfg.inputLead(); got != netcode.DefaultInputLead {
		t.Errorf("the default server's input lead is %d ticks; clients keep inputs for %d", got, netcode.DefaultInputLead)
	}
}

// TestHostOf: a client's address counts by its IP, an IPv6 one by its /64, whatever the port.
func TestHostOf(t *testing.T) {
	for _, c := range []struct{ addr, want string }{
		{"192.0.2.7:4000", "192.0.2.7"},
		{"[::ffff:192.0.2.7]:4000", "192.0.2.7"},
		{"[2001:db8:1:2:aaaa:bbbb:cccc:dddd]:4000", "2001:db8:1:2::"},
	} {
		ap := netip.MustParseAddrPort(c.addr)
		if got := hostOf(net.UDPAddrFromAddrPort(ap)); got.String() != c.want {
			t.Errorf("hostOf(%s) = %s, want %s", c.addr, got, c.want)
		}
	}
}
