package server

// A player that leaves on its own (a Goodbye, or a connection it closed) may leave inputs
// behind: the ones still waiting in its input buffer and the ones that reached its session
// just before the Goodbye. Every one of them is a step the client already showed its player,
// so the world applies them before it removes the tank, as on arrival (no tick to keep pace
// with any more) and within the movement limits of the time budget, which still bound the
// simulated time per tick and per second. A player dropped by the server goes at once.

// maxPartingTicks bounds how long a player that left stays to have its inputs applied:
// 2 s, which drains a full buffer and any honest backlog at the budget's 200 ms a tick.
// Inputs still waiting then (sent faster than real time) are discarded with the player.
const maxPartingTicks = 40

// part removes player id, which left on its own for reason, once the inputs it sent before
// leaving are applied: at once if none is waiting, otherwise at the end of the tick that
// applies the last one (at most maxPartingTicks later): it leaves at the top of the next
// tick, so the tick record that names its departure applies no input of it. Others hear of
// it only then.
func (w *world) part(id uint32, reason string) {
	p := w.find(id)
	switch {
	case p == nil:
		return
	case p.parting != "":
		return // it is leaving already
	}
	if w.admitInputs(p).dropping() || len(p.queue) == 0 {
		w.leave(id, reason) // nothing (usable) waits: its last inputs broke a rule, it left anyway
		return
	}
	p.parting = reason
}

// finishParting removes the parting players whose inputs are all applied, or whose time to
// apply them is up. It runs at the top of a tick, before any input is applied.
func (w *world) finishParting() {
	for i := 0; i < len(w.players); {
		p := w.players[i]
		if p.parting != "" {
			p.partTicks++
			if len(p.queue) == 0 || p.partTicks >= maxPartingTicks {
				w.leave(p.id, p.parting)
				continue // leave removed players[i]
			}
		}
		i++
	}
}

// find returns the player with id, nil if there is none.
func (w *world) find(id uint32) *player {
	for _, p := range w.players {
		if p.id == id {
			return p
		}
	}
	return nil
}
