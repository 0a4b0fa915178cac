package world

import (
	"time"

	"tanknet/netcode"
)

// Config is what a world needs to know of its match. The server derives it from its own
// Config (server.Config); a recording from its header.
type Config struct {
	Arena netcode.Arena
	Rules netcode.Rules // Rules.Contact says whether the world pushes tanks apart or checks clients' pushes
	// MaxPlayers is the most tanks the world holds; Join refuses more.
	MaxPlayers int
	// Interest says clients are sent only the tanks near their own: a shot may then only
	// name tanks its client was sent (Client.Sent). Without it every client is sent every tank.
	Interest bool
	// InputOnArrival applies each client's inputs as they arrive, rather than one a tick from
	// its buffer, for clients that did not ask (Client.InputMode).
	InputOnArrival bool
	// InputLead is how many ticks a MoveInput may run ahead of its player's last applied one.
	InputLead uint32
	// MaxInputDuration bounds one MoveInput's duration.
	MaxInputDuration time.Duration
	// The movement limits of a player's time budget: simulated time never runs ahead of
	// server time since the join by more than TimeSlack, and no tick or second of server time
	// grants more than MaxSimPerTick or MaxSimPerSecond of it.
	TimeSlack, MaxSimPerTick, MaxSimPerSecond time.Duration
	// Buffer, when set, is told each player-tick's input buffer figures.
	Buffer BufferObserver
}

// BufferObserver is told how each player's input buffer fared, for the server's figures.
type BufferObserver interface {
	// PlayerTick is one tick of a playing player: whether it starved (no input waited),
	// how many inputs were applied and how many still wait.
	PlayerTick(starved bool, applied, waiting int)
	// InputWait is how long one applied input waited between its arrival and its tick.
	InputWait(wait time.Duration)
}

// HistoryTicks is how many ticks of what clients were sent the world remembers for judging
// shots: the rewind window, the tick being judged and one spare (a view may name any tick
// from RewindWindow before the judging tick up to the previous tick).
func (c *Config) HistoryTicks() int { return int(netcode.Ticks(c.Rules.RewindWindow)) + 2 }

// MaxInputsPerTick is the most MoveInputs one tick applies for one player: as many 50 ms
// inputs as MaxSimPerTick holds (4). Shorter inputs gain nothing from being many: each one
// costs the server a simulation and its recording a move, so a client sending 1 ms moves
// gets 4 ms of game a tick and bounds what it costs (docs/RECORDINGS.md).
func (c *Config) MaxInputsPerTick() int {
	return max(int(c.MaxSimPerTick/netcode.StepInterval), 1)
}
