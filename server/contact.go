package server

import (
	"fmt"

	"tanknet/netcode"
	"tanknet/wire"
)

// A room's contact mode (PROTOCOL.md §7c) starts as Config.Rules.Contact and may be switched
// during the match (SetContact): the room takes the new mode between two ticks, plays every
// tick after under it, and tells each of its players in a RulesChanged on the stream. A
// client plays by it from its next prediction step; an input it sent under the old mode
// meanwhile is judged under the new one (a push the new mode refuses is applied as zero).

// SetContact switches the contact mode of the open room named room ("" for DefaultRoom) to
// m, from its next tick on. It does not wait for that tick: the room reads the mode it is
// asked for before each tick. It returns an error when m is not off, server or predicted,
// or when no such room is open. Safe to call from any goroutine.
func (s *Server) SetContact(room string, m netcode.ContactMode) error {
	if m == netcode.ContactUnspecified || m > netcode.ContactPredicted {
		return fmt.Errorf("server: contact mode %d is not one of off, server and predicted", m)
	}
	if room == "" {
		room = DefaultRoom
	}
	s.rooms.mu.Lock()
	defer s.rooms.mu.Unlock()
	r := s.rooms.open[room]
	if r == nil {
		return fmt.Errorf("server: no room %q is open", wire.ClipRoomName(room))
	}
	r.contact.Store(uint32(m))
	return nil
}

// takeContact switches g to the contact mode r was asked for, if it differs from the one g
// plays: the world ticks under it from its next tick, and every player is told.
func (r *room) takeContact(g *game) {
	if m := netcode.ContactMode(r.contact.Load()); m != g.world.Config().Rules.Contact {
		g.setContact(m)
	}
}

// setContact has the world tick under contact mode m from its next tick and sends every
// player the rules as they now are (RulesChanged).
func (g *game) setContact(m netcode.ContactMode) {
	g.world.SetContact(m)
	from := g.tick() + 1
	frame := g.encode(wire.RulesChanged{Rules: g.world.Config().Rules, FromTick: from})
	for _, p := range g.players() {
		p.peer.send(frame)
	}
	g.log.Info("contact mode changed", "contact", m.String(), "from_tick", from, "room", g.room)
}
