package server

import (
	"tanknet/transport"
	"tanknet/wire"
)

// rosterFrameBudget is the size, in bytes, at which a RosterUpdate is split in two: well
// inside transport.MaxFrameSize even with every name or reason at its longest, and small
// enough that one update never holds a client's stream for long.
const rosterFrameBudget = 8 << 10

// rosterEntryOverhead is a generous bound on the bytes a PlayerJoined or PlayerLeft costs
// beyond its text: tags, lengths and a five-byte id.
const rosterEntryOverhead = 16

// rosterChange is one player entering (joined set) or leaving (left set) the game.
type rosterChange struct {
	joined *wire.Player
	left   *wire.Departure
}

// noteJoin and noteLeave record a change for the roster update at the end of this tick.
func (g *game) noteJoin(p *player) {
	g.changes = append(g.changes, rosterChange{joined: &wire.Player{ID: p.tank.ID(), Name: p.name}})
}

func (g *game) noteLeave(id uint32, reason string) {
	g.changes = append(g.changes, rosterChange{left: &wire.Departure{ID: id, Reason: reason}})
}

// sendFullRoster queues, for a newcomer p, every player in the game (p itself last: its id
// is the highest). It goes as plain control frames, never merged with the updates after
// it, so the first RosterUpdate a client reads is the roster as it joined.
func (g *game) sendFullRoster(p *player) {
	all := make([]rosterChange, 0, len(g.world.Tanks()))
	for _, o := range g.players() {
		all = append(all, rosterChange{joined: &wire.Player{ID: o.tank.ID(), Name: o.name}})
	}
	for _, f := range g.encodeRoster(all) {
		p.peer.send(f.frame)
	}
}

// flushRoster tells every player this tick's roster changes, coalesced into one update (or a
// few when large), however many joins and leaves there were. A player that joined during
// this tick already has the roster as it was then, and gets only the changes after it.
func (g *game) flushRoster() {
	if len(g.changes) == 0 {
		return
	}
	everyone := g.encodeRoster(g.changes)
	for _, p := range g.players() {
		frames := everyone
		if p.rosterSeen > 0 {
			frames = g.encodeRoster(g.changes[p.rosterSeen:])
			p.rosterSeen = 0
		}
		for _, f := range frames {
			p.peer.sendRoster(f)
		}
	}
	clear(g.changes)
	g.changes = g.changes[:0]
}

// encodeRoster frames changes as RosterUpdates of at most about rosterFrameBudget bytes each,
// in order, each with what it says (the frame and the update are shared, read-only, by every
// player they go to; a session merges updates waiting behind a blocked write). Joins keep
// their order inside an update and so do leaves; a player who joins and leaves in one tick
// appears in both lists of the same update, or the leave in a later one.
func (g *game) encodeRoster(changes []rosterChange) []controlFrame {
	var frames []controlFrame
	var upd wire.Roster
	size := 0
	flush := func() {
		if len(upd.Joined)+len(upd.Left) == 0 {
			return
		}
		if f := g.encode(upd); f != nil {
			said := upd
			frames = append(frames, controlFrame{frame: f, roster: &said})
		}
		upd, size = wire.Roster{}, 0
	}
	for _, c := range changes {
		n := rosterEntryOverhead
		if c.joined != nil {
			n += len(c.joined.Name)
		} else {
			n += len(c.left.Reason)
		}
		if size+n > rosterFrameBudget {
			flush()
		}
		size += n
		if c.joined != nil {
			upd.Joined = append(upd.Joined, *c.joined)
		} else {
			upd.Left = append(upd.Left, *c.left)
		}
	}
	flush()
	return frames
}

// mergeRoster returns one RosterUpdate that says what a and then b say, for a client told
// neither yet: the joins of both, then the leaves of both, less every player who both joins
// and leaves in them (ids are never reused, so the client never heard of it). It reports
// false when the merged update would pass rosterFrameBudget, or cannot be framed: then the
// two stay apart.
func mergeRoster(a, b *wire.Roster) (controlFrame, bool) {
	gone := make(map[uint32]bool, len(a.Left)+len(b.Left))
	for _, l := range a.Left {
		gone[l.ID] = true
	}
	for _, l := range b.Left {
		gone[l.ID] = true
	}
	unheard := make(map[uint32]bool)
	m := &wire.Roster{}
	for _, js := range [][]wire.Player{a.Joined, b.Joined} {
		for _, j := range js {
			if gone[j.ID] {
				unheard[j.ID] = true
				continue
			}
			m.Joined = append(m.Joined, j)
		}
	}
	for _, ls := range [][]wire.Departure{a.Left, b.Left} {
		for _, l := range ls {
			if !unheard[l.ID] {
				m.Left = append(m.Left, l)
			}
		}
	}
	f, err := transport.AppendFrame(nil, wire.ServerMessageToProto(*m))
	if err != nil || len(f) > rosterFrameBudget {
		return controlFrame{}, false
	}
	return controlFrame{frame: f, roster: m}, true
}
