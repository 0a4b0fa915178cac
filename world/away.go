package world

// A player may say it is away (an Away message: its browser tab is hidden or frozen, and
// it stops sending inputs for a while). Without a word, the ticks it then misses would
// starve: counted against the input buffer's figures, reported to it as starved (its clock
// would realign when it came back), and its tank would stand only because nothing came.
// Away makes the standing the rule: once the inputs it sent before going away are applied,
// the world applies nothing for it, and those ticks are neither player-ticks nor starved
// (Counts.AwayTicks). The tank holds its pose, as any tank with no input does, so a client
// that replays its inputs still computes exactly the server's pose when it comes back. Its
// next fresh input (queued by Queue or QueueCopies) ends it.

// Away marks t's player away after its move tick lastMoveTick and reports whether it took:
// an Away older than an input the world already has (lastMoveTick below t's newest queued
// or applied tick: a datagram of a later input overtook the stream) is out of date and
// changes nothing. The inputs queued before it are applied as usual.
func (w *World) Away(t *Tank, lastMoveTick uint32) bool {
	if lastMoveTick < t.last {
		return false
	}
	if !t.away {
		w.counts.Aways++
	}
	t.away = true
	return true
}

// Away reports whether the tank's player said it is away and has sent no input since.
func (t *Tank) Away() bool { return t.away }

// standing reports whether t's player is away with nothing left to apply: a tick of it is
// not a player-tick of the input buffer's figures.
func (t *Tank) standing() bool { return t.away && len(t.queue) == 0 }
