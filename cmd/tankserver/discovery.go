package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"net"
	"net/netip"
	"os"
	"slices"
	"strconv"
	"unicode/utf8"

	"tanknet/discovery"
	"tanknet/server"
	"tanknet/transport"
)

// discoverySpot is where -discovery asks the server to answer LAN discovery (PROTOCOL.md
// §12): off, or a host (empty: every IPv4 interface) and a port (0: the first free one of
// discovery.FirstPort and the nine after it).
type discoverySpot struct {
	off  bool
	host string
	port int
}

// discoverySpot reads -discovery: on (the default: -addr's host, a port of the range), off,
// a PORT on -addr's host, or HOST:PORT (HOST:0: a port of the range on HOST).
func (c Config) discoverySpot() (discoverySpot, error) {
	gameHost, _, err := net.SplitHostPort(c.Server.Addr)
	if err != nil {
		return discoverySpot{}, fmt.Errorf("-addr %q: %w", c.Server.Addr, err)
	}
	switch v := c.Discovery; {
	case v == "off":
		return discoverySpot{off: true}, nil
	case v == "on" || v == "":
		return discoverySpot{host: gameHost}, nil
	case !containsColon(v):
		p, err := strconv.Atoi(v)
		if err != nil || p < 1 || p > 65535 {
			return discoverySpot{}, fmt.Errorf("-discovery %q: want on, off, a PORT (1-65535) or HOST:PORT", v)
		}
		return discoverySpot{host: gameHost, port: p}, nil
	default:
		host, ps, err := net.SplitHostPort(v)
		p, perr := strconv.Atoi(ps)
		if err != nil || perr != nil || p < 0 || p > 65535 {
			return discoverySpot{}, fmt.Errorf("-discovery %q: want on, off, a PORT (1-65535) or HOST:PORT", v)
		}
		return discoverySpot{host: host, port: p}, nil
	}
}

func containsColon(s string) bool { return slices.Contains([]byte(s), ':') }

// serverName returns -name, or the host's name cut to discovery.MaxName bytes, or
// "tankserver" when that is not printable.
func serverName(name string) string {
	if name != "" {
		return name
	}
	host, err := os.Hostname()
	for len(host) > discovery.MaxName {
		_, size := utf8.DecodeLastRuneInString(host)
		host = host[:len(host)-size]
	}
	if err != nil || host == "" || discovery.CheckName(host) != nil {
		return "tankserver"
	}
	return host
}

// startDiscovery answers LAN discovery for srv, whose game listens on gamePort (and whose
// page, when door is not nil, on door's port), until the returned stop is called; counts,
// when not nil, reads its responder's counts for /metrics. With
// the default port range full it logs a warning and answers nothing; a port asked for
// that cannot be had is an error.
func startDiscovery(cfg Config, srv *server.Server, gamePort int, door *web, counts *discoveryCollector) (stop func(), err error) {
	spot, err := cfg.discoverySpot()
	if err != nil || spot.off {
		return func() {}, err
	}
	log := cfg.Server.Logger
	pc, err := discovery.Listen(spot.host, spot.port)
	if err != nil && spot.port == 0 {
		log.Warn("LAN discovery is off: no port to answer on", "err", err)
		return func() {}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("-discovery: %w", err)
	}
	rcfg := discovery.DefaultResponderConfig()
	rcfg.ServerID = randomID()
	rcfg.Logger = log
	summary := summarizer(cfg, srv, gamePort, webPort(door, spot.host))
	r, err := discovery.NewResponder(pc, rcfg, summary)
	if err != nil {
		pc.Close()
		return nil, err
	}
	if counts != nil {
		counts.responder.Store(r)
	}
	log.Info("answering LAN discovery", "addr", pc.LocalAddr().String(), "name", summary().Name)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := r.Serve(ctx); err != nil {
			log.Error("LAN discovery stopped", "err", err)
		}
	}()
	return func() { cancel(); <-done }, nil
}

// summarizer returns what the server says of itself in an answer: the same rooms and
// players the Agones counters carry, with each room's count.
func summarizer(cfg Config, srv *server.Server, gamePort int, web uint16) func() discovery.Answer {
	name := serverName(cfg.Name)
	return func() discovery.Answer {
		st := srv.Stats()
		rooms := make([]discovery.Room, 0, len(st.Rooms))
		for _, r := range st.Rooms {
			rooms = append(rooms, discovery.Room{Name: r.Name, Players: r.Players})
		}
		slices.SortStableFunc(rooms, func(a, b discovery.Room) int { // the default room first
			return boolRank(b.Name == server.DefaultRoom) - boolRank(a.Name == server.DefaultRoom)
		})
		return discovery.Answer{
			Name: name, GameProtocol: transport.ProtocolVersion, Draining: srv.Draining(),
			GamePort: uint16(gamePort), WebPort: web, RoomCapacity: cfg.Server.MaxPlayers,
			MaxRooms: cfg.Server.MaxRooms, RoomsOpen: len(rooms), Players: st.Players, Rooms: rooms,
		}
	}
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// webPort returns the page's port to announce: none without -web, or when the page
// listens on one address only and it is not the one discovery answers from (the client
// reaches the page at the answer's source address).
func webPort(door *web, host string) uint16 {
	if door == nil {
		return 0
	}
	a, ok := door.ln.Addr().(*net.TCPAddr)
	if !ok {
		return 0
	}
	ip, _ := netip.AddrFromSlice(a.IP)
	if h, err := netip.ParseAddr(host); !ip.Unmap().IsUnspecified() && (err != nil || h.Unmap() != ip.Unmap()) {
		return 0
	}
	return uint16(a.Port)
}

// randomID draws the server's discovery id.
func randomID() uint64 {
	var b [8]byte
	rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}
