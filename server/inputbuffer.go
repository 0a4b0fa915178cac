package server

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
// A buffer that grows past maxBuffered inputs (a client whose clock ran fast, or the
// backlog of a server that was paused) is drained faster: the extra inputs go at once, as
// on arrival. That is never a speed gain: every input still passes the movement limits of
// simulate's budget (the wall-time slack, MaxSimPerTick and MaxSimPerSecond), which bound
// the simulated time per tick and per second in both modes.

// maxBuffered is the most inputs that wait for their turn: 8 ticks (400 ms) covers the
// jitter of every preset with room to spare; beyond it the buffer drains as on arrival.
const maxBuffered = 8

// dueInputs returns how many of p's queued inputs this tick may apply: all of them on
// arrival, one from the buffer (plus whatever exceeds maxBuffered after it).
func (w *world) dueInputs(p *player) int {
	if w.onArrival(p) || p.parting != "" { // a player that left has no tick to keep pace with
		return len(p.queue)
	}
	return min(len(p.queue), 1+max(len(p.queue)-1-maxBuffered, 0))
}

// inputMode is how a client asked for its inputs to be applied (InputMode).
type inputMode int32

const (
	modeServerDefault inputMode = iota // it never asked: Config.InputOnArrival decides
	modeBuffered                       // one per tick from the buffer
	modeOnArrival                      // as they arrive
)

// onArrival reports whether p's inputs are applied as they arrive: what the client asked
// for, or the server's default.
func (w *world) onArrival(p *player) bool {
	switch p.peer.inputMode() {
	case modeBuffered:
		return false
	case modeOnArrival:
		return true
	}
	return w.cfg.InputOnArrival
}
