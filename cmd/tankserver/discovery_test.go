package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"strconv"
	"testing"
	"time"

	"tanknet/discovery"
	"tanknet/server"
)

func TestDiscoverySpot(t *testing.T) {
	tests := []struct {
		addr, flag string
		want       discoverySpot
		bad        bool
	}{
		{":7777", "on", discoverySpot{}, false},
		{"127.0.0.1:7777", "on", discoverySpot{host: "127.0.0.1"}, false},
		{":7777", "off", discoverySpot{off: true}, false},
		{"127.0.0.1:7777", "47800", discoverySpot{host: "127.0.0.1", port: 47800}, false},
		{":7777", "10.0.0.2:47701", discoverySpot{host: "10.0.0.2", port: 47701}, false},
		{":7777", "127.0.0.1:0", discoverySpot{host: "127.0.0.1"}, false},
		{":7777", "0", discoverySpot{}, true},
		{":7777", "70000", discoverySpot{}, true},
		{":7777", "yes", discoverySpot{}, true},
		{":7777", "host:port", discoverySpot{}, true},
	}
	for _, tt := range tests {
		c := DefaultConfig()
		c.Server.Addr, c.Discovery = tt.addr, tt.flag
		got, err := c.discoverySpot()
		if (err != nil) != tt.bad || (!tt.bad && got != tt.want) {
			t.Errorf("-addr %s -discovery %s = %+v, %v; want %+v (error: %v)", tt.addr, tt.flag, got, err, tt.want, tt.bad)
		}
	}
	for _, args := range [][]string{{"-discovery", "maybe"}, {"-name", "\x1b[31mred"}, {"-name", "a-name-that-is-longer-than-32-bytes"}} {
		if _, err := parse(args...); err == nil {
			t.Errorf("parseFlags(%q) = nil error, want it refused", args)
		}
	}
	if cfg, err := parse("-discovery", "off", "-name", "lab"); err != nil || cfg.Discovery != "off" || cfg.Name != "lab" {
		t.Errorf("parseFlags(-discovery off -name lab) = %+v, %v", cfg, err)
	}
}

// TestRun_AnswersDiscovery: a tankserver started as main starts it answers LAN discovery
// on a port of the range beside its game, with its name, game port, default room and the
// players in it.
func TestRun_AnswersDiscovery(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Server.Addr = freeUDPAddr(t)
	cfg.Name = "discovery-test-" + strconv.Itoa(int(time.Now().UnixNano()%1e6))
	cfg.Server.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, cfg, nil) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run = %v", err)
		}
	}()
	gamePort := netip.MustParseAddrPort(cfg.Server.Addr).Port()
	// Discovery answers from before Serve has opened the default room: wait for the room.
	s := findServer(t, cfg.Name, func(s discovery.Server) bool { return s.RoomsOpen > 0 })
	if s.Game != netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), gamePort) || s.Page != "" || s.Draining ||
		s.RoomCapacity != cfg.Server.MaxPlayers || s.MaxRooms != cfg.Server.MaxRooms || s.RoomsOpen != 1 ||
		len(s.Rooms) != 1 || s.Rooms[0].Name != server.DefaultRoom || s.GameProtocol != 2 {
		t.Errorf("found %+v, want the game on 127.0.0.1:%d and the default room alone", s, gamePort)
	}
	if p := s.Discovery.Port(); p < discovery.FirstPort || p >= discovery.FirstPort+discovery.PortCount {
		t.Errorf("discovery answered from port %d, want one of %d-%d", p, discovery.FirstPort, discovery.FirstPort+discovery.PortCount-1)
	}
	bots, stopBots := context.WithCancel(context.Background())
	ps := playBots(t, bots, cfg.Server.Addr, 2)
	defer func() { stopBots(); ps.wait() }()
	findServer(t, cfg.Name, func(s discovery.Server) bool {
		return s.Players == 2 && len(s.Rooms) == 1 && s.Rooms[0].Players == 2
	})
}

// findServer asks the loopback's discovery ports, round after round (at most 30), until the
// server named name answers as ok wants, and returns its answer.
func findServer(t testing.TB, name string, ok func(discovery.Server) bool) discovery.Server {
	t.Helper()
	cfg := discovery.DefaultBrowseConfig()
	cfg.Targets, cfg.Wait = []netip.Addr{netip.MustParseAddr("127.0.0.1")}, 500*time.Millisecond
	var last []discovery.Server
	for range 30 {
		list, err := discovery.Discover(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range list {
			if s.Name == name && ok(s) {
				return s
			}
		}
		last = list
	}
	t.Fatalf("30 rounds did not find %q as wanted; the last found %+v", name, last)
	return discovery.Server{}
}

// TestSummarizer_SaysWhatTheServerIs: the summary carries the flags' capacity, the game and
// page ports given, the protocol, and whether the server drains.
func TestSummarizer_SaysWhatTheServerIs(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Name, cfg.Server.MaxPlayers, cfg.Server.MaxRooms = "lab", 12, 3
	cfg.Server.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := server.New(cfg.Server)
	if err != nil {
		t.Fatal(err)
	}
	summarize := summarizer(cfg, srv, 7777, 8080)
	a := summarize()
	if a.Name != "lab" || a.GamePort != 7777 || a.WebPort != 8080 || a.RoomCapacity != 12 || a.MaxRooms != 3 || a.GameProtocol != 2 || a.Draining {
		t.Errorf("summary = %+v, want lab on 7777/8080, rooms of 12, at most 3, protocol 2, not draining", a)
	}
	if _, err := discovery.AppendAnswer(nil, a, discovery.MinRequest); err != nil {
		t.Errorf("the summary cannot be sent: %v", err)
	}
	srv.Drain()
	if !summarize().Draining {
		t.Error("after Drain the summary says not draining")
	}
}

func TestServerName(t *testing.T) {
	if got := serverName("lab"); got != "lab" {
		t.Errorf("serverName(lab) = %q", got)
	}
	if got := serverName(""); got == "" || discovery.CheckName(got) != nil {
		t.Errorf("serverName(\"\") = %q, want the host's name or tankserver, sendable", got)
	}
}

// addrListener is a net.Listener that only has an address: webPort reads nothing else.
type addrListener struct {
	net.Listener
	a net.Addr
}

func (l addrListener) Addr() net.Addr { return l.a }

func TestWebPort_OnlyWhereDiscoveryAnswers(t *testing.T) {
	at := func(ip string) *web {
		return &web{ln: addrListener{a: &net.TCPAddr{IP: net.ParseIP(ip), Port: 8080}}}
	}
	tests := []struct {
		door *web
		host string
		want uint16
	}{
		{nil, "", 0},
		{at("0.0.0.0"), "", 8080},
		{at("::"), "127.0.0.1", 8080},
		{at("127.0.0.1"), "127.0.0.1", 8080},
		{at("127.0.0.1"), "", 0},         // discovery on every interface, the page on the loopback only
		{at("10.0.0.5"), "127.0.0.1", 0}, // a client reaching discovery at 127.0.0.1 would not find the page there
	}
	for _, tt := range tests {
		if got := webPort(tt.door, tt.host); got != tt.want {
			t.Errorf("webPort(page %v, discovery host %q) = %d, want %d", tt.door, tt.host, got, tt.want)
		}
	}
}
