package client

import "tanknet/netcode"

// contactFresh is how many ticks older than the newest snapshot a remote tank's newest
// state may be for our pushes to answer it: the server accepts a push only against states
// of the rewind window before the tick that applies it (docs/PROTOCOL.md §7c), and a tank
// missing from the newest snapshots has left our view or the game.
const contactFresh = 2

// contactOthers returns where the other tanks are, for our contact pushes, when the server
// has clients predict contact (netcode.ContactPredicted): the newest state the server sent
// of each, wrecks included, when it is recent, carried on to where our prediction is
// (netcode.PushTarget). It returns nil otherwise, and while our own tank is a wreck. The slice is the
// Game's scratch, valid until the next call.
func (g *Game) contactOthers() []netcode.Reach {
	if g.rules.Contact != netcode.ContactPredicted || g.own.Destroyed {
		return nil // a wreck does not move: the server applies its inputs, pushes included, as zero
	}
	g.pushAgainst = g.pushAgainst[:0]
	pending := uint32(len(g.local.Pending()))
	window := netcode.Ticks(g.rules.RewindWindow)
	for _, rm := range g.remotes {
		cur, ok := rm.Interp.Newest()
		if !ok || cur.Tick+contactFresh < g.stats.ServerTick {
			continue
		}
		prev, hasPrev := rm.Interp.Previous()
		lead := pending + g.stats.ServerTick - cur.Tick
		if at, ok := netcode.PushTarget(&g.welcome.Arena, prev, cur, hasPrev, lead, window); ok {
			g.pushAgainst = append(g.pushAgainst, at)
		}
	}
	return g.pushAgainst
}
