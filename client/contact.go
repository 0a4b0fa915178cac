package client

import "tanknet/netcode"

// contactFresh is how many ticks older than the newest snapshot a remote tank's newest
// state may be for our pushes to answer it: the server accepts a push only against states
// of the rewind window before the tick that applies it (docs/PROTOCOL.md §7c), and a tank
// missing from the newest snapshots has left our view or the game.
const contactFresh = 2

// reaches returns where the other tanks are, for our contact pushes: the newest state the
// server sent of each, wrecks included, when it is no more than contactFresh ticks older than
// serverTick, carried on to where our prediction is (netcode.PushTarget) with pending inputs
// of ours in flight. The slice is the timeline's scratch, valid until the next call.
func (t *timeline) reaches(arena *netcode.Arena, rules netcode.Rules, pending int, serverTick uint32) []netcode.Reach {
	t.reach = t.reach[:0]
	window := netcode.Ticks(rules.RewindWindow)
	for _, rm := range t.tanks {
		cur, ok := rm.Interp.Newest()
		if !ok || cur.Tick+contactFresh < serverTick {
			continue
		}
		prev, hasPrev := rm.Interp.Previous()
		lead := uint32(pending) + serverTick - cur.Tick
		if at, ok := netcode.PushTarget(arena, prev, cur, hasPrev, lead, window); ok {
			t.reach = append(t.reach, at)
		}
	}
	return t.reach
}

// contactOthers returns the reaches our next prediction step answers when the server has
// clients predict contact (netcode.ContactPredicted); nil otherwise, and while our own tank
// is a wreck.
func (g *Game) contactOthers() []netcode.Reach {
	if g.rules.Contact != netcode.ContactPredicted || g.combat.own.Destroyed {
		return nil // a wreck does not move: the server applies its inputs, pushes included, as zero
	}
	return g.others.reaches(&g.welcome.Arena, g.rules, len(g.pred.pending()), g.stats.serverTick())
}
