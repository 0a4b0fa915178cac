package discovery

import (
	"fmt"
	"net"
	"net/netip"
	"slices"
	"strings"
	"time"
)

// Server is one server found, from its latest answer, with every address it answered from.
type Server struct {
	// ID is the server's random id in hex: the same server heard through several network
	// cards or addresses is one Server.
	ID   string `json:"id"`
	Name string `json:"name"`
	// Game is the address to play at (tankclient -server): the first of Addrs, sorted, at
	// the game port the server gave.
	Game netip.AddrPort `json:"game"`
	// Page is the browser page's URL when the server serves one (tankserver -web); empty
	// otherwise.
	Page string `json:"page,omitempty"`
	// Addrs are the addresses the server answered from, sorted.
	Addrs []netip.Addr `json:"addrs"`
	// Discovery is the address and port the first of Addrs answered from.
	Discovery    netip.AddrPort `json:"discovery"`
	GameProtocol int            `json:"game_protocol"`
	Draining     bool           `json:"draining"`
	RoomCapacity int            `json:"room_capacity"`
	MaxRooms     int            `json:"max_rooms"`
	RoomsOpen    int            `json:"rooms_open"`
	Players      int            `json:"players"`
	Rooms        []Room         `json:"rooms"`
	// AnswerMS is how long the server's first answer in the round took, in milliseconds
	// from the round's first request: the LAN's round trip and the server's reply together.
	AnswerMS float64 `json:"answer_ms"`
}

// found is a server heard in a round, before its addresses are settled.
type found struct {
	answer Answer
	from   []netip.AddrPort
	after  time.Duration // from the round's first request to the first answer
}

// merge adds answer a, heard from src, to servers by its ServerID. Of a server's answers
// in a round the one that lists the most rooms is kept (the latest of those). It reports
// whether a is the server's first answer and leaves rooms out: then it is worth asking the
// server for all of them. after is how long after the round's first request a came.
func merge(servers map[uint64]*found, a Answer, src netip.AddrPort, after time.Duration) (partial bool) {
	src = netip.AddrPortFrom(src.Addr().Unmap(), src.Port())
	f := servers[a.ServerID]
	first := f == nil
	if first {
		f = &found{answer: a, after: after}
		servers[a.ServerID] = f
	}
	if len(a.Rooms) >= len(f.answer.Rooms) {
		f.answer = a
	}
	if !slices.Contains(f.from, src) {
		f.from = append(f.from, src)
	}
	return first && len(a.Rooms) < a.RoomsOpen
}

// list returns the servers found, sorted by name, then id.
func list(servers map[uint64]*found) []Server {
	out := make([]Server, 0, len(servers))
	for _, f := range servers {
		out = append(out, f.server())
	}
	slices.SortFunc(out, func(a, b Server) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out
}

func (f *found) server() Server {
	slices.SortFunc(f.from, func(a, b netip.AddrPort) int { return a.Compare(b) })
	a := f.answer
	s := Server{
		ID: fmt.Sprintf("%016x", a.ServerID), Name: a.Name, Discovery: f.from[0],
		Game:         netip.AddrPortFrom(f.from[0].Addr(), a.GamePort),
		GameProtocol: int(a.GameProtocol), Draining: a.Draining, RoomCapacity: a.RoomCapacity,
		MaxRooms: a.MaxRooms, RoomsOpen: a.RoomsOpen, Players: a.Players, Rooms: a.Rooms,
		AnswerMS: float64(f.after.Microseconds()) / 1000,
	}
	if s.Rooms == nil {
		s.Rooms = []Room{}
	}
	for _, ap := range f.from {
		if !slices.Contains(s.Addrs, ap.Addr()) {
			s.Addrs = append(s.Addrs, ap.Addr())
		}
	}
	if a.WebPort != 0 {
		s.Page = "http://" + netip.AddrPortFrom(s.Addrs[0], a.WebPort).String() + "/"
	}
	return s
}

// DefaultTargets returns where a client asks by default: the loopback address (servers
// that listen on 127.0.0.1 only) and the broadcast address of every IPv4 network this host
// is on, or when it finds none the limited broadcast address 255.255.255.255 (which some
// systems send out of one network card only, and which a card's own broadcast already
// covers).
func DefaultTargets() []netip.Addr {
	out := []netip.Addr{netip.AddrFrom4([4]byte{127, 0, 0, 1})}
	for _, b := range interfaceBroadcasts() {
		if !slices.Contains(out, b) {
			out = append(out, b)
		}
	}
	if len(out) == 1 {
		out = append(out, netip.AddrFrom4([4]byte{255, 255, 255, 255}))
	}
	return out
}

// interfaceBroadcasts returns the broadcast address of each IPv4 network of every network
// card that is up and can broadcast.
func interfaceBroadcasts() []netip.Addr {
	var out []netip.Addr
	ifaces, err := net.Interfaces()
	if err != nil {
		return nil
	}
	for _, ifc := range ifaces {
		if ifc.Flags&net.FlagUp == 0 || ifc.Flags&net.FlagBroadcast == 0 {
			continue
		}
		addrs, err := ifc.Addrs()
		if err != nil {
			continue
		}
		for _, a := range addrs {
			if b, ok := broadcastOf(a); ok {
				out = append(out, b)
			}
		}
	}
	return out
}

// broadcastOf returns the broadcast address of an interface's IPv4 network.
func broadcastOf(a net.Addr) (netip.Addr, bool) {
	n, ok := a.(*net.IPNet)
	if !ok {
		return netip.Addr{}, false
	}
	ip4, mask := n.IP.To4(), n.Mask
	if ip4 == nil || len(mask) != net.IPv4len {
		return netip.Addr{}, false
	}
	if ones, _ := mask.Size(); ones >= 31 {
		return netip.Addr{}, false // a point-to-point link has no broadcast address
	}
	var b [4]byte
	for i := range b {
		b[i] = ip4[i] | ^mask[i]
	}
	return netip.AddrFrom4(b), true
}
