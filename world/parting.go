package world

// A player that leaves on its own (a Goodbye, or a connection it closed) may leave inputs
// behind in its input buffer (the driver queues the ones that reached it just before the
// Goodbye first). Every one of them is a step the client already showed its player,
// so the world applies them before it removes the tank, as on arrival (no tick to keep pace
// with any more) and within the movement limits of the time budget, which still bound the
// simulated time per tick and per second. A player dropped by the server goes at once.

// MaxPartingTicks bounds how long a player that left stays to have its inputs applied:
// 2 s, which drains a full buffer and any honest backlog at the budget's 200 ms a tick.
// Inputs still waiting then (sent faster than real time) are discarded with the player.
const MaxPartingTicks = 40

// Part removes player id, which left on its own, once the inputs it sent before leaving
// are applied: at once if none is waiting (it returns true), otherwise at the top of the
// tick after the one that applied the last of them (at most MaxPartingTicks later); that
// tick's outcome names it in Parted and applies no input of it. A player parting already
// is left alone.
func (w *World) Part(id uint32) (gone bool) {
	t := w.Find(id)
	switch {
	case t == nil:
		return false
	case t.parting:
		return false // it is leaving already
	}
	if len(t.queue) == 0 {
		w.Leave(id) // nothing waits
		return true
	}
	t.parting = true
	return false
}

// finishParting removes the parting players whose inputs are all applied, or whose time to
// apply them is up. It runs at the top of a tick, before any input is applied.
func (w *World) finishParting() {
	for i := 0; i < len(w.tanks); {
		t := w.tanks[i]
		if t.parting {
			t.partTicks++
			if len(t.queue) == 0 || t.partTicks >= MaxPartingTicks {
				w.out.Parted = append(w.out.Parted, t.id)
				w.remove(i)
				continue // remove took tanks[i] away
			}
		}
		i++
	}
}
