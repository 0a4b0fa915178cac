package discovery

import (
	"context"
	"net"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// servers starts responders that answer with summary, each with its id, on sockets from
// listen, and stops them when the test ends. stop[i] stops the i-th and waits for it.
func servers(t testing.TB, listen func() (net.PacketConn, error), summary Answer, cfg ResponderConfig, ids ...uint64) (rs []*Responder, stop []func()) {
	t.Helper()
	for _, id := range ids {
		pc, err := listen()
		if err != nil {
			t.Fatalf("listen: %v", err)
		}
		cfg.ServerID = id
		r, err := NewResponder(pc, cfg, func() Answer { return summary })
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- r.Serve(ctx) }()
		var once sync.Once
		s := func() {
			once.Do(func() {
				cancel()
				if err := <-done; err != nil {
					t.Errorf("Serve: %v", err)
				}
			})
		}
		t.Cleanup(s)
		rs, stop = append(rs, r), append(stop, s)
	}
	return rs, stop
}

func loopback() []netip.Addr { return []netip.Addr{netip.MustParseAddr("127.0.0.1")} }

func portOf(r *Responder) uint16 { return uint16(r.Addr().(*net.UDPAddr).Port) }

func ids(list []Server) []string {
	var out []string
	for _, s := range list {
		out = append(out, s.ID)
	}
	return out
}

// TestDiscover_TwoServersOnOneHost: two servers on one host each take a port of the
// range, and a round asking the range finds both, with what they said.
func TestDiscover_TwoServersOnOneHost(t *testing.T) {
	summary := sample()
	rs, _ := servers(t, func() (net.PacketConn, error) { return Listen("127.0.0.1", 0) }, summary, DefaultResponderConfig(), 0xa1, 0xa2)
	if portOf(rs[0]) == portOf(rs[1]) || portOf(rs[0]) < FirstPort || portOf(rs[1]) >= FirstPort+PortCount {
		t.Fatalf("servers on ports %d and %d, want two ports of %d-%d", portOf(rs[0]), portOf(rs[1]), FirstPort, FirstPort+PortCount-1)
	}
	cfg := DefaultBrowseConfig()
	cfg.Targets = loopback()
	want := []string{"00000000000000a1", "00000000000000a2"}
	var list []Server
	var got []string
	for range 10 { // a loaded machine may miss a round's answers; it does not miss ten
		var err error
		if list, err = Discover(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		got = ids(list) // other tanknet servers on this host may answer too
		if slices.Contains(got, want[0]) && slices.Contains(got, want[1]) {
			break
		}
	}
	for _, id := range want {
		i := slices.Index(got, id)
		if i < 0 {
			t.Fatalf("ten rounds of Discover found %v, want %s among them", got, id)
		}
		s := list[i]
		if s.Name != summary.Name || s.Game.String() != "127.0.0.1:7777" || s.Page != "http://127.0.0.1:8080/" ||
			!s.Draining || s.RoomsOpen != 3 || len(s.Rooms) != 3 || s.Rooms[0] != (Room{"default", 4}) {
			t.Errorf("server %s = %+v, want what its summary says", id, s)
		}
		if wait := float64(cfg.Wait.Milliseconds()); s.AnswerMS <= 0 || s.AnswerMS > wait {
			t.Errorf("server %s answered after %v ms, want within the round's %v ms", id, s.AnswerMS, wait)
		}
	}
}

// TestBrowse_StoppedServerLeaves: a server that stops is missing from the first round
// that starts after it stopped, while the other stays.
func TestBrowse_StoppedServerLeaves(t *testing.T) {
	rs, stop := servers(t, func() (net.PacketConn, error) { return net.ListenPacket("udp4", "127.0.0.1:0") }, sample(), DefaultResponderConfig(), 0xb1, 0xb2)
	cfg := BrowseConfig{Targets: loopback(), Ports: []uint16{portOf(rs[0]), portOf(rs[1])}, Refresh: 400 * time.Millisecond, Wait: 300 * time.Millisecond, RequestSize: MaxDatagram}
	ctx, cancel := context.WithCancel(context.Background())
	updates := make(chan []Server) // unbuffered: a round is received before the next one starts
	done := make(chan error, 1)
	go func() { done <- Browse(ctx, cfg, func(l []Server) { updates <- l }) }()
	defer func() {
		cancel()
		for {
			select {
			case <-updates:
			case err := <-done:
				if err != nil {
					t.Errorf("Browse: %v", err)
				}
				return
			}
		}
	}()
	both := false
	for round := 0; round < 50 && !both; round++ {
		l := ids(<-updates)
		both = slices.Contains(l, "00000000000000b1") && slices.Contains(l, "00000000000000b2")
	}
	if !both {
		t.Fatal("50 rounds did not find both servers")
	}
	stop[0]()
	<-updates // this round may have started before the server stopped
	if l := ids(<-updates); slices.Contains(l, "00000000000000b1") {
		t.Fatalf("the round after the server stopped lists %v, want 00000000000000b1 gone", l)
	}
	for round := 0; round < 50; round++ {
		if slices.Contains(ids(<-updates), "00000000000000b2") {
			return
		}
	}
	t.Fatal("the server still running was not found again in 50 rounds")
}

// ask sends one request of size bytes to r from pc and returns the answer's bytes, or nil
// when none came within the deadline.
func ask(t *testing.T, pc net.PacketConn, to net.Addr, nonce uint32, size int) []byte {
	t.Helper()
	req, err := AppendRequest(nil, nonce, min(size, MaxDatagram))
	if err != nil {
		t.Fatal(err)
	}
	req = append(req, make([]byte, size-len(req))...)
	if _, err := pc.WriteTo(req, to); err != nil {
		t.Fatal(err)
	}
	return readAnswer(t, pc, nonce)
}

// readAnswer returns the next answer carrying nonce that pc receives within 10 s, or nil.
func readAnswer(t *testing.T, pc net.PacketConn, nonce uint32) []byte {
	t.Helper()
	pc.SetReadDeadline(time.Now().Add(10 * time.Second))
	buf := make([]byte, 64<<10)
	for {
		n, _, err := pc.ReadFrom(buf)
		if err != nil {
			return nil
		}
		if a, err := ParseAnswer(buf[:n]); err == nil && a.Nonce == nonce {
			return buf[:n:n]
		}
	}
}

// TestResponder_NoAmplification: over a real socket, every request size from 1 byte to
// past MaxDatagram is answered with at most MaxRatio times its bytes, or not at all
// (short or malformed ones), even for a server with 256 rooms of the longest names.
func TestResponder_NoAmplification(t *testing.T) {
	big := sample()
	big.Name, big.Rooms = strings.Repeat("N", MaxName), nil
	for i := range 256 {
		big.Rooms = append(big.Rooms, Room{Name: strings.Repeat("r", MaxName-2) + string(rune('a'+i%26)) + string(rune('a'+i/26)), Players: 9})
	}
	big.RoomsOpen = len(big.Rooms)
	cfg := DefaultResponderConfig()
	cfg.Limits = Limits{Burst: 1 << 20, PerSecond: 1, Sources: 8, TotalPerSecond: 1 << 20}
	rs, _ := servers(t, func() (net.PacketConn, error) { return net.ListenPacket("udp4", "127.0.0.1:0") }, big, cfg, 0xc1)
	pc, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	to := rs[0].Addr()
	// Short requests, foreign datagrams and answers get nothing: the next datagram pc
	// receives after each is the answer to the well-formed request sent after it.
	req, _ := AppendRequest(nil, 1, MinRequest)
	answer, _ := AppendAnswer(nil, sample(), MaxDatagram)
	bad := [][]byte{append([]byte("TNK!\xe1\x02"), make([]byte, 200)...), answer}
	for size := 1; size < MinRequest; size++ {
		bad = append(bad, make([]byte, size), req[:size])
	}
	buf := make([]byte, 64<<10)
	for i, b := range bad {
		pc.WriteTo(b, to)
		marker, _ := AppendRequest(nil, uint32(1000+i), MinRequest)
		pc.WriteTo(marker, to)
		pc.SetReadDeadline(time.Now().Add(10 * time.Second))
		n, _, err := pc.ReadFrom(buf)
		if err != nil {
			t.Fatalf("no answer to a request after %d bad bytes: %v", len(b), err)
		}
		if a, err := ParseAnswer(buf[:n]); err != nil || a.Nonce != uint32(1000+i) {
			t.Fatalf("after %d bad bytes (%x...) and a request, got %d bytes (nonce %d, %v), want the request's answer", len(b), b[:min(len(b), 16)], n, a.Nonce, err)
		}
	}
	if got := rs[0].Stats(); got.Answered != uint64(len(bad)) || got.Malformed != uint64(len(bad)) {
		t.Errorf("Stats = %+v, want %d answered and as many malformed", got, len(bad))
	}
	for size := MinRequest; size <= MaxDatagram+64; size++ {
		b := ask(t, pc, to, uint32(size), size)
		if b == nil {
			t.Fatalf("a %d-byte request got no answer", size)
		}
		if len(b) > size*MaxRatio || len(b) > MaxDatagram {
			t.Fatalf("a %d-byte request got a %d-byte answer", size, len(b))
		}
	}
}

// TestDiscover_SmallRequestThenEveryRoom: a server whose answer to a small request leaves
// rooms out is asked again directly with a full-size request, so the round lists every
// room it has.
func TestDiscover_SmallRequestThenEveryRoom(t *testing.T) {
	many := sample()
	many.Rooms = nil
	for i := range 60 {
		many.Rooms = append(many.Rooms, Room{Name: "room-" + strings.Repeat(string(rune('a'+i%26)), 1+i/26), Players: i % 17})
	}
	many.RoomsOpen = len(many.Rooms)
	rs, _ := servers(t, func() (net.PacketConn, error) { return net.ListenPacket("udp4", "127.0.0.1:0") }, many, DefaultResponderConfig(), 0xf1)
	cfg := DefaultBrowseConfig()
	cfg.Targets, cfg.Ports, cfg.RequestSize = loopback(), []uint16{portOf(rs[0])}, MinRequest
	for range 10 { // a loaded machine may miss a round's answers; it does not miss ten
		list, err := Discover(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) == 1 && len(list[0].Rooms) == len(many.Rooms) {
			if !slices.Equal(list[0].Rooms, many.Rooms) {
				t.Errorf("rooms %v, want %v", list[0].Rooms, many.Rooms)
			}
			return
		}
	}
	t.Fatalf("ten rounds of %d-byte requests did not list all %d rooms", MinRequest, len(many.Rooms))
}
