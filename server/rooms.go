package server

import (
	"fmt"
	"net"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"tanknet/wire"
)

// Rooms. One server plays several matches at once on one UDP port, each in its own room. A
// Hello names the room it wants (Hello.room); one that names none joins DefaultRoom. The
// default room opens with Serve and stays open until the server stops or drains; any other
// room opens when a client first asks for it, if the server runs fewer than Config.MaxRooms
// and the client's address has not opened rooms too quickly, and closes once it has been
// empty for Config.RoomGrace.
//
// A room is a game with its own goroutine and ticker (runRoom): its players, ticks, lag
// compensation history and tick durations are its own, so a full room does not lengthen the
// tick of a quiet one beyond what sharing the machine's cores costs. Player ids are unique
// across the server, not per room.

// DefaultRoom is the room of a Hello that names none.
const DefaultRoom = "default"

// maxRooms bounds Config.MaxRooms: each room is a goroutine ticking 20 times a second and a
// set of metric series, and one process is not meant to be a whole fleet.
const maxRooms = 256

// roomName returns the room a Hello's room field asks for, or why it is not a room name.
func roomName(requested string) (string, error) {
	if requested == "" {
		return DefaultRoom, nil
	}
	if err := wire.CheckRoomName(requested); err != nil {
		return "", err
	}
	return requested, nil
}

// room is one match: the channels its goroutine serves and the figures others may read.
type room struct {
	name   string
	joins  chan joinRequest
	leaves chan leaveNote
	done   chan struct{} // closed when the room's goroutine has ended

	tick     atomic.Uint32 // its latest tick, for Pong
	contact  atomic.Uint32 // the netcode.ContactMode it is asked to play (SetContact; contact.go)
	players  atomic.Int32
	ticks    tickHistogram // wall time of its ticks
	ticksCPU tickHistogram // thread CPU time of its ticks, where known
	input    *bufferStats  // its input buffer figures

	pending int        // handshakes on their way to joins; guarded by roomSet.mu
	opener  netip.Addr // the address (an IPv6 one by its /64) whose Hello opened it; none for the default room
}

// roomSet is every open room. Handshakes find or open rooms in it; a room's goroutine takes
// itself out of it when it closes.
type roomSet struct {
	mu      sync.Mutex
	open    map[string]*room
	stopped bool        // Serve is ending: no room opens any more
	opens   openLimiter // rooms opened per address
	running sync.WaitGroup
}

// RoomStats is one open room's figures.
type RoomStats struct {
	Name         string
	Players      int
	Ticks        uint64           // ticks the room has run since it opened
	TickDuration TickHistogram    // wall time of its ticks' own work
	TickCPU      TickHistogram    // their thread CPU time, where known (Stats.TickCPU)
	Input        InputBufferStats // how its players' inputs met its ticks
}

// roomStats returns the open rooms' figures, by name.
func (s *Server) roomStats() []RoomStats {
	s.rooms.mu.Lock()
	defer s.rooms.mu.Unlock()
	out := make([]RoomStats, 0, len(s.rooms.open))
	for _, r := range s.rooms.open {
		out = append(out, RoomStats{Name: r.name, Players: int(r.players.Load()), Ticks: uint64(r.tick.Load()), TickDuration: r.ticks.snapshot(), TickCPU: r.ticksCPU.snapshot(), Input: r.input.snapshot()})
	}
	slices.SortFunc(out, func(a, b RoomStats) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Rooms returns how many rooms are open: a cheap read for an orchestrator's room counter.
func (s *Server) Rooms() int {
	s.rooms.mu.Lock()
	defer s.rooms.mu.Unlock()
	return len(s.rooms.open)
}

// enter finds the room a handshake from addr asks for, opening it if it may, and counts the
// handshake as on its way there until settle. It returns the Reject when there is no such
// room to join. start starts a new room's goroutine.
func (s *Server) enter(name string, addr net.Addr, now time.Time, start func(*room)) (*room, *wire.Reject) {
	rs := &s.rooms
	rs.mu.Lock()
	defer rs.mu.Unlock()
	switch {
	case s.Draining():
		return nil, &wire.Reject{Code: wire.RejectShuttingDown, Reason: drainedReason}
	case rs.stopped:
		return nil, &wire.Reject{Code: wire.RejectShuttingDown, Reason: "server shutting down"}
	}
	if r := rs.open[name]; r != nil {
		r.pending++
		return r, nil
	}
	if len(rs.open) >= s.cfg.MaxRooms {
		return nil, &wire.Reject{Code: wire.RejectNoRoom,
			Reason: fmt.Sprintf("room %q is not open, and this server already runs its %d rooms", name, s.cfg.MaxRooms)}
	}
	host := hostOf(addr)
	opened := rs.openedBy()
	held := opened[host]
	if held >= s.cfg.MaxRoomsPerAddress { // else one address could hold every room, reopening each as its grace ends
		return nil, &wire.Reject{Code: wire.RejectNoRoom,
			Reason: fmt.Sprintf("room %q is not open, and this address already opened %d rooms that are still open", name, held)}
	}
	if held > 0 && extraRooms(opened) >= s.cfg.extraRooms() { // else a handful of addresses could hold every room
		return nil, &wire.Reject{Code: wire.RejectNoRoom,
			Reason: fmt.Sprintf("room %q is not open: this address already holds a room, and every extra room is taken (at most %d)", name, s.cfg.extraRooms())}
	}
	if !rs.opens.allow(host, now, s.cfg.RoomOpenBurst, s.cfg.RoomOpenEvery) {
		return nil, &wire.Reject{Code: wire.RejectNoRoom,
			Reason: fmt.Sprintf("room %q is not open, and this address opened %d rooms too recently; try again in %v", name, s.cfg.RoomOpenBurst, s.cfg.RoomOpenEvery)}
	}
	r := s.openRoom(name)
	r.opener = host
	r.pending++
	start(r)
	return r, nil
}

// openedBy returns how many open rooms each address opened (the default room has no
// opener). The caller holds mu.
func (rs *roomSet) openedBy() map[netip.Addr]int {
	held := map[netip.Addr]int{}
	for _, r := range rs.open {
		if r.opener.IsValid() {
			held[r.opener]++
		}
	}
	return held
}

// extraRooms returns how many open rooms are extra rooms (Config.ExtraRooms), given how many
// each address opened: each address's open rooms beyond the first, counted as they are now
// (an address whose first room closed holds its other as its first).
func extraRooms(opened map[netip.Addr]int) int {
	n := 0
	for _, k := range opened {
		n += k - 1
	}
	return n
}

// openRoom adds a new room; the caller holds rooms.mu and starts its goroutine.
func (s *Server) openRoom(name string) *room {
	r := &room{name: name, joins: make(chan joinRequest), leaves: make(chan leaveNote), done: make(chan struct{}), input: newBufferStats()}
	r.contact.Store(uint32(s.cfg.Rules.Contact))
	if s.rooms.open == nil {
		s.rooms.open = map[string]*room{}
	}
	s.rooms.open[name] = r
	s.rooms.running.Add(1)
	if name != DefaultRoom {
		s.log.Info("room opened", "room", name, "rooms", len(s.rooms.open))
	}
	return r
}

// settle ends a handshake's passage to r, seated or refused.
func (s *Server) settle(r *room) {
	s.rooms.mu.Lock()
	r.pending--
	s.rooms.mu.Unlock()
}

// closeRoom takes an empty r out of the open rooms, unless a handshake is on its way to it.
// The last room to close in a drain ends the drain.
func (s *Server) closeRoom(r *room) bool {
	rs := &s.rooms
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if r.pending > 0 {
		return false
	}
	delete(rs.open, r.name)
	if len(rs.open) == 0 && s.Draining() {
		s.drain.finish(func() { s.log.Info("drained: no player left") })
	}
	return true
}

// stopRooms stops rooms from opening, for the end of Serve.
func (s *Server) stopRooms() {
	s.rooms.mu.Lock()
	s.rooms.stopped = true
	s.rooms.mu.Unlock()
}

// hostOf returns the unit room opening is limited by: the IP address of addr (a client that
// reconnects from a new port is the same client), an IPv6 one by its /64 (one host commonly
// has the whole /64).
func hostOf(addr net.Addr) netip.Addr {
	var ip netip.Addr
	if u, ok := addr.(*net.UDPAddr); ok {
		ip, _ = netip.AddrFromSlice(u.IP)
	} else if ap, err := netip.ParseAddrPort(addr.String()); err == nil {
		ip = ap.Addr()
	}
	if ip = ip.Unmap(); ip.Is6() {
		if p, err := ip.Prefix(64); err == nil {
			return p.Addr()
		}
	}
	return ip
}

// openLimiter limits how fast each address opens rooms: a bucket of burst tokens per
// address, refilled one every interval. It keeps at most maxOpeners addresses.
type openLimiter struct {
	by map[netip.Addr]openBucket
}

type openBucket struct {
	tokens float64
	at     time.Time
}

const maxOpeners = 4096

// allow reports whether ip may open a room at now, and spends its token if so.
func (l *openLimiter) allow(ip netip.Addr, now time.Time, burst int, every time.Duration) bool {
	if l.by == nil {
		l.by = map[netip.Addr]openBucket{}
	}
	refill := func(b openBucket) float64 {
		if every <= 0 {
			return float64(burst)
		}
		return min(float64(burst), b.tokens+float64(now.Sub(b.at))/float64(every))
	}
	b, ok := l.by[ip]
	if !ok {
		if len(l.by) >= maxOpeners {
			for k, old := range l.by { // forget the addresses whose bucket is full again
				if refill(old) >= float64(burst) {
					delete(l.by, k)
				}
			}
			if len(l.by) >= maxOpeners {
				return false // thousands of addresses opening rooms at once: none more now
			}
		}
		b = openBucket{tokens: float64(burst), at: now}
	}
	b.tokens, b.at = refill(b), now
	if b.tokens < 1 {
		l.by[ip] = b
		return false
	}
	b.tokens--
	l.by[ip] = b
	return true
}
