package server

import (
	"fmt"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"tanknet/netcode"
	"tanknet/wire"
)

func TestRoomName(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{"", DefaultRoom, ""},
		{"default", DefaultRoom, ""},
		{"Class-7_b", "Class-7_b", ""},
		{strings.Repeat("r", wire.MaxRoomName), strings.Repeat("r", wire.MaxRoomName), ""},
		{strings.Repeat("r", wire.MaxRoomName+1), "", "33 bytes"},
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

// TestRooms_AHandfulOfAddressesCannotHoldEveryRoom: five addresses asking for two rooms each
// (within -max-rooms-per-address) get one each and one of them a second (the server's one
// extra room by default), so an honest newcomer's room still opens. Holding every room
// takes six addresses.
func TestRooms_AHandfulOfAddressesCannotHoldEveryRoom(t *testing.T) {
	s := quietServer(t)
	s.rooms.mu.Lock()
	s.openRoom(DefaultRoom)
	s.rooms.mu.Unlock()
	now := time.Unix(1000, 0)
	enter := func(name, ip string) bool {
		addr := net.UDPAddrFromAddrPort(netip.MustParseAddrPort(ip + ":4000"))
		_, reject := s.enter(name, addr, now, func(*room) {})
		return reject == nil
	}
	held := map[string]int{}
	for i := range 5 {
		ip := netip.AddrFrom4([4]byte{198, 51, 100, byte(i + 1)}).String()
		for j := range 2 {
			if enter(fmt.Sprintf("squat-%d-%d", i, j), ip) {
				held[ip]++
			}
		}
	}
	total := 0
	for _, n := range held {
		total += n
	}
	if total != 5+s.cfg.extraRooms() || s.cfg.extraRooms() != 1 {
		t.Errorf("five addresses hold %d rooms (%v), want one each and %d extra", total, held, s.cfg.extraRooms())
	}
	if !enter("honest", "192.0.2.1") {
		t.Errorf("a newcomer got NO_ROOM with %d rooms open", s.Rooms())
	}
	if enter("honest-second", "192.0.2.1") {
		t.Error("the newcomer got a second room past the extra rooms' share")
	}
	if s.Rooms() != s.cfg.MaxRooms {
		t.Errorf("%d rooms open, want all %d", s.Rooms(), s.cfg.MaxRooms)
	}

	// With no bound on extra rooms, the same five hold every room: the rule keeps them free.
	cfg := s.cfg
	cfg.ExtraRooms = cfg.MaxRooms
	s, _ = New(cfg)
	s.rooms.mu.Lock()
	s.openRoom(DefaultRoom)
	s.rooms.mu.Unlock()
	for i := range 5 {
		ip := netip.AddrFrom4([4]byte{198, 51, 100, byte(i + 1)}).String()
		for j := range 2 {
			enter(fmt.Sprintf("squat-%d-%d", i, j), ip)
		}
	}
	if enter("honest", "192.0.2.1") {
		t.Error("without the reserve a newcomer still found a room: the test proves nothing")
	}
}

// TestRooms_ExtraRoomsCountWhatAnAddressHoldsNow: an address's open rooms beyond its first
// are the extra ones (PROTOCOL.md §4.2, rule 3). When its first room closes, the other it
// opened is its first from then on, so it may open a second again while another address's
// second is refused only as long as the extras are taken.
func TestRooms_ExtraRoomsCountWhatAnAddressHoldsNow(t *testing.T) {
	s := quietServer(t)
	now := time.Unix(1000, 0)
	rooms := map[string]*room{}
	enter := func(name, ip string) bool {
		now = now.Add(time.Minute) // never too quickly (rule 4)
		addr := net.UDPAddrFromAddrPort(netip.MustParseAddrPort(ip + ":4000"))
		r, reject := s.enter(name, addr, now, func(*room) {})
		if reject != nil {
			return false
		}
		s.settle(r)
		rooms[name] = r
		return true
	}
	const a, b = "198.51.100.1", "198.51.100.2"
	if s.cfg.extraRooms() != 1 || !enter("g", a) || !enter("h", a) || !enter("b1", b) {
		t.Fatalf("want one extra room, and rooms g and h for one address and b1 for another")
	}
	if enter("b2", b) {
		t.Fatal("a second room for the other address while the one extra room (h) is taken")
	}
	if !s.closeRoom(rooms["g"]) {
		t.Fatal("room g did not close")
	}
	if !enter("g", a) {
		t.Error("with its first room closed the address holds h alone, and no room is extra: opening another was refused")
	}
	if enter("b2", b) {
		t.Error("a second room for the other address while the address holding g and h takes the extra one")
	}
}
