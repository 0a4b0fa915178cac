package server

import "tanknet/wire"

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
// is the highest).
func (g *game) sendFullRoster(p *player) {
	all := make([]rosterChange, 0, len(g.world.Tanks()))
	for _, o := range g.players() {
		all = append(all, rosterChange{joined: &wire.Player{ID: o.tank.ID(), Name: o.name}})
	}
	for _, f := range g.encodeRoster(all) {
		p.peer.send(f)
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
			p.peer.send(f)
		}
	}
	clear(g.changes)
	g.changes = g.changes[:0]
}

// encodeRoster frames changes as RosterUpdates of at most about rosterFrameBudget bytes each,
// in order. Joins keep their order inside an update and so do leaves; a player who joins and
// leaves in one tick appears in both lists of the same update, or the leave in a later one.
func (g *game) encodeRoster(changes []rosterChange) [][]byte {
	var frames [][]byte
	var upd wire.Roster
	size := 0
	flush := func() {
		if len(upd.Joined)+len(upd.Left) == 0 {
			return
		}
		if f := g.encode(upd); f != nil {
			frames = append(frames, f)
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
