package load

import (
	"errors"
	"fmt"
	"net"
	"time"

	"tanknet/netcode"
)

// MaxPlayers is the most thin clients one run holds: 2,048 players, the top of the cost
// curve, and twice that for a server with more rooms.
const MaxPlayers = 4096

// Config is one load run.
type Config struct {
	// Server is the tankserver's address, host:port.
	Server string
	// Players is how many thin clients join, in [1, MaxPlayers].
	Players int
	// RoomSize is how many consecutive players share a room: the first RoomSize join the
	// server's default room, the next "room-2", and on (the names tanksim -rooms uses).
	// 0 puts everyone in the default room.
	RoomSize int
	// Duration is how long the clients play once every one has joined.
	Duration time.Duration
	// Drivers is how many goroutines drive the clients, each a share of them, each on its
	// own 50 ms clock offset from the others so the server sees inputs spread over a tick.
	Drivers int
	// JoinParallel is how many handshakes are in flight at once while the clients join: the
	// size of the join burst the server takes.
	JoinParallel int
	// JoinTimeout bounds one client's handshake.
	JoinTimeout time.Duration
	// Script is the input of every client's move tick; nil drives in circles, each
	// client turning its own way.
	Script func(player int) Script
	// Playing, if set, is called with true when every client has joined and play begins,
	// and with false when it ends (before the settling second): a caller measuring the
	// server reads its counters there, so the joins and the settling stay out of them.
	Playing func(bool)
}

// DefaultConfig returns a run of 256 players in rooms of 32 for 20 s.
func DefaultConfig() Config {
	return Config{
		Players:      256,
		RoomSize:     32, // the cost curve's room: 32 rooms make 1,024 players
		Duration:     20 * time.Second,
		Drivers:      4,  // a few: enough to spread the sends over a tick, few enough to stay cheap
		JoinParallel: 64, // a burst that fills two rooms at once
		JoinTimeout:  10 * time.Second,
	}
}

// Validate reports the first problem with c, worded for the tankload command line.
func (c Config) Validate() error {
	switch {
	case c.Server == "":
		return errors.New("tankload: -server is required")
	case c.Players < 1 || c.Players > MaxPlayers:
		return fmt.Errorf("tankload: -players %d outside [1, %d]", c.Players, MaxPlayers)
	case c.RoomSize < 0:
		return fmt.Errorf("tankload: -room-size %d is negative", c.RoomSize)
	case c.Duration <= 0 || c.Duration > 24*time.Hour:
		return fmt.Errorf("tankload: -duration %v outside (0, 24h]", c.Duration)
	case c.Drivers < 1 || c.Drivers > 64:
		return fmt.Errorf("tankload: -drivers %d outside [1, 64]", c.Drivers)
	case c.JoinParallel < 1:
		return fmt.Errorf("tankload: -join-parallel %d must be at least 1", c.JoinParallel)
	case c.JoinTimeout <= 0:
		return fmt.Errorf("tankload: -join-timeout %v must be positive", c.JoinTimeout)
	}
	if _, _, err := net.SplitHostPort(c.Server); err != nil {
		return fmt.Errorf("tankload: -server %q: %w", c.Server, err)
	}
	return nil
}

// RoomOf returns the room player i (from 0) joins: "" (the default room) for the first
// RoomSize, then "room-2" and on.
func (c Config) RoomOf(i int) string {
	if c.RoomSize == 0 || i < c.RoomSize {
		return ""
	}
	return fmt.Sprintf("room-%d", i/c.RoomSize+1)
}

// Rooms returns how many rooms the run fills.
func (c Config) Rooms() int {
	if c.RoomSize == 0 {
		return 1
	}
	return (c.Players + c.RoomSize - 1) / c.RoomSize
}

// circles is the default script: full throttle, turning one way or the other by player, so
// tanks keep moving and spread over the arena.
func circles(player int) Script {
	turn := 0.3
	if player%2 == 1 {
		turn = -0.3
	}
	in := netcode.Input{Turn: turn, Throttle: 1}
	return func(uint32) netcode.Input { return in }
}
