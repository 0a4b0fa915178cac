package world

// The input buffer: each tick the world applies one MoveInput per player, the oldest that
// player has queued, never "whatever arrived since the last tick". Clients send one input
// per 50 ms step on their own clock, so their arrivals drift against the server's tick: on
// arrival, a tick with none leaves the tank standing and the next moves it twice, and every
// observer sees the stutter. With the buffer, a late input only makes its tick hold (the
// tank stands; nothing is invented for it, so the client's replay stays exact) and an early
// one waits its turn. Each player's own snapshot state reports how long the applied input
// waited and whether the tick starved (InputReport), and the client runs its clock a little
// fast or slow (netcode.Dilation) to keep that wait small but above zero.
//
// A buffer that grows past MaxBuffered inputs (a client whose clock ran fast, or the
// backlog of a server that was paused) is drained faster: the extra inputs go at once, as
// on arrival. That is never a speed gain: every input still passes the movement limits of
// apply's budget (the wall-time slack, MaxSimPerTick and MaxSimPerSecond), which bound
// the simulated time per tick and per second in both modes.

// MaxBuffered is the most inputs that wait for their turn: 8 ticks (400 ms) covers the
// jitter of every preset with room to spare; beyond it the buffer drains as on arrival.
const MaxBuffered = 8

// dueInputs returns how many of t's queued inputs this tick may apply: all of them on
// arrival, one from the buffer (plus whatever exceeds MaxBuffered after it).
func (w *World) dueInputs(t *Tank) int {
	if w.onArrival(t) || t.parting { // a player that left has no tick to keep pace with
		return len(t.queue)
	}
	return min(len(t.queue), 1+max(len(t.queue)-1-MaxBuffered, 0))
}

// onArrival reports whether t's inputs are applied as they arrive: what the client asked
// for, or the world's default.
func (w *World) onArrival(t *Tank) bool {
	if t.client != nil {
		switch t.client.InputMode() {
		case ModeBuffered:
			return false
		case ModeOnArrival:
			return true
		}
	}
	return w.cfg.InputOnArrival
}
