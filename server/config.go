package server

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"time"

	"tanknet/netcode"
	"tanknet/wire"
)

// Config is the server's configuration. Start from DefaultConfig; the zero value is not
// valid.
type Config struct {
	// Addr is the UDP address to listen on, e.g. ":7777" or "127.0.0.1:0".
	Addr string
	// MaxPlayers is how many players may be in the game at once; one more is rejected.
	MaxPlayers int
	// Lane is how snapshots travel: chunk datagrams (the default) or the reliable stream as
	// in protocol version 1. Sent to every client in Welcome.
	Lane wire.Lane
	// InputOnArrival applies each client's inputs at the first tick after they arrive, as
	// many as arrived, instead of one per tick from its input buffer (the default, false;
	// see inputbuffer.go). A client can ask for either for itself (InputMode); this is the
	// choice for clients that do not ask.
	InputOnArrival bool
	// Arena is the field and movement rules; sent to every client in Welcome.
	Arena netcode.Arena
	// ViewRadius is interest management: each client is sent only the tanks within this
	// many world units of its own (and keeps one it was sent until it is
	// netcode.ViewHysteresis farther). Zero chooses: everything on an arena that fits a
	// window's view (Arena.Fits), netcode.ViewRadius on a larger one. Negative sends
	// everything always.
	ViewRadius float64
	// Rules are the combat rules (cannon, health, respawn, rewind window); sent to every
	// client in Welcome.
	Rules netcode.Rules
	// MaxInputLead is how far ahead of its last applied input a client's MoveInput tick may
	// run before the client is dropped, in ticks. It must exceed what an honest client can
	// deliver at once after a stall, which is up to IdleTimeout's worth. Zero means a
	// second past IdleTimeout (120 ticks for the default 5 s).
	MaxInputLead uint32
	// MaxInputDuration is the longest MoveInput.duration_ms accepted.
	MaxInputDuration time.Duration
	// TimeSlack is how much simulated time a player may be granted beyond the wall time it
	// has been connected: room for network jitter, no room for a speed hack.
	TimeSlack time.Duration
	// MaxSimPerTick caps the simulated time one player gets in one tick. Time a player saved
	// by sending nothing can then only be spent at this rate, so a stalled honest client
	// catches up quickly while a cheater cannot teleport.
	MaxSimPerTick time.Duration
	// MaxSimPerSecond caps the simulated time one player gets over any second of server
	// time, so whatever a client sends or saved up, its tank covers at most
	// MaxSimPerSecond/1s times the arena speed in any one second.
	MaxSimPerSecond time.Duration
	// HelloTimeout is how long a new connection has to send its Hello.
	HelloTimeout time.Duration
	// MaxHandshakes is how many connections may be waiting for their Hello at once; a new
	// one beyond it closes the longest-waiting one, so a flood of silent sessions costs
	// bounded memory and cannot lock honest players out.
	MaxHandshakes int
	// IdleTimeout drops a client that has sent nothing for this long.
	IdleTimeout time.Duration
	// AwayTimeout is IdleTimeout for a client that said it is away (an Away message: a
	// hidden or frozen browser tab), and AckTimeout too if it is longer: the client is dropped
	// after this long silent, or leaving our data unacknowledged, while away. Its next
	// MoveInput ends it.
	AwayTimeout time.Duration
	// AckTimeout drops a client that has left the server's reliable data unacknowledged,
	// or its receive window shut, for this long: one that cannot hear us (a spoofed source)
	// or does not read. Sending alone does not keep a slot.
	AckTimeout time.Duration
	// MaxJoinsPerTick is how many Hellos a room seats per tick; more wait their turn in
	// the join queue, so a burst of joins costs the running game a bounded amount per tick.
	MaxJoinsPerTick int
	// MaxQueuedJoins is how many Hellos may wait for a seat at once; one more is refused with
	// REJECT_CODE_BUSY. Zero means MaxPlayers: a full server's worth of joins at once.
	MaxQueuedJoins int
	// MaxRooms is how many rooms (matches, see rooms.go) may be open at once, the default
	// room included; 1 plays the default room alone. MaxPlayers applies to each room.
	MaxRooms int
	// RoomGrace is how long a room other than the default one stays open once empty, so a
	// player who reconnects finds it still there.
	RoomGrace time.Duration
	// RoomOpenBurst and RoomOpenEvery limit how fast one address opens rooms: at most
	// RoomOpenBurst at once, then one per RoomOpenEvery.
	RoomOpenBurst int
	RoomOpenEvery time.Duration
	// MaxRoomsPerAddress is how many open rooms one address (an IPv6 one by its /64) may have
	// opened: no single client holds every room.
	MaxRoomsPerAddress int
	// ChallengesPerSecond is the address validation's Challenge budget, shared fairly among
	// source prefixes (docs/PROTOCOL.md §1.5); 0 means transport.DefaultChallengesPerSecond.
	ChallengesPerSecond int
	// ExtraRooms is how many open rooms, in all, may be extra rooms: each address's open
	// rooms beyond its first (its second and later, within MaxRoomsPerAddress). The
	// others are one per address, so holding every room takes MaxRooms - 1 - ExtraRooms
	// addresses, not a handful with MaxRoomsPerAddress rooms each. Negative (the default,
	// AutoExtraRooms): a quarter of MaxRooms - 1, rounded down (1 of the default 7 rooms a
	// client can open). A test whose clients all come from one address sets MaxRooms.
	ExtraRooms int
	// Logger receives one line per join, reject and drop. Nil means slog.Default().
	Logger *slog.Logger
}

// AutoExtraRooms asks for the default share of extra rooms (Config.ExtraRooms): a quarter
// of the rooms clients can open.
const AutoExtraRooms = -1

// extraRooms is how many extra rooms may be open at once (see Config.ExtraRooms).
func (c *Config) extraRooms() int {
	if c.ExtraRooms < 0 {
		return (c.MaxRooms - 1) / 4
	}
	return c.ExtraRooms
}

// DefaultConfig returns a configuration for a local game on port 7777.
func DefaultConfig() Config {
	return Config{
		Addr:               ":7777",
		MaxPlayers:         16, // fills the default arena without making it a traffic jam
		Arena:              netcode.DefaultArena(),
		Rules:              netcode.DefaultRules(),
		MaxInputDuration:   200 * time.Millisecond, // four steps: a client catching up a frame hitch
		TimeSlack:          250 * time.Millisecond, // absorbs bursts after a KCP retransmission
		MaxSimPerTick:      200 * time.Millisecond, // 4x real time: a stall's backlog drains quickly...
		MaxSimPerSecond:    2 * time.Second,        // ...but at most 2x over any second: no sprinting on saved time
		HelloTimeout:       5 * time.Second,
		MaxHandshakes:      64,               // far more than honest players mid-handshake (each takes one RTT)
		IdleTimeout:        5 * time.Second,  // clients send every 50 ms; 5 s of silence is gone
		AwayTimeout:        2 * time.Minute,  // a tab hidden or frozen for a minute or two stays in; longer is gone
		AckTimeout:         30 * time.Second, // a 1 s link (RTO ~2.5 s) that loses one segment five times running still recovers within it
		MaxJoinsPerTick:    32,               // 640 joins/s: 256 players seated in 8 ticks
		MaxRooms:           8,                // a LAN party's worth of matches on one port
		RoomGrace:          10 * time.Second, // a dropped player's reconnect finds its room
		RoomOpenBurst:      8,                // one address may open a server's worth at once...
		RoomOpenEvery:      time.Second,      // ...but churns through them at most once a second
		MaxRoomsPerAddress: 2,                // a player and a friend's match; a class or a party opens from many
		ExtraRooms:         AutoExtraRooms,   // a quarter of the rooms a client can open
	}
}

// Validate reports the first problem with c.
func (c Config) Validate() error {
	switch {
	case c.Addr == "":
		return errors.New("server: empty listen address")
	case c.MaxPlayers < 1 || c.MaxPlayers > 256:
		return fmt.Errorf("server: max players %d outside [1, 256]", c.MaxPlayers)
	case c.MaxInputDuration < time.Millisecond:
		return fmt.Errorf("server: max input duration %v below 1ms", c.MaxInputDuration)
	case c.MaxSimPerTick < c.MaxInputDuration:
		return fmt.Errorf("server: max simulated time per tick %v below the max input duration %v", c.MaxSimPerTick, c.MaxInputDuration)
	case c.MaxSimPerSecond <= time.Second || c.MaxSimPerSecond < c.MaxSimPerTick:
		// At 1x or less an honest client could never catch up after a stall.
		return fmt.Errorf("server: max simulated time per second %v must exceed 1s and the per-tick cap %v", c.MaxSimPerSecond, c.MaxSimPerTick)
	case c.TimeSlack < 0:
		return fmt.Errorf("server: negative time slack %v", c.TimeSlack)
	case c.HelloTimeout <= 0 || c.IdleTimeout <= 0 || c.AckTimeout <= 0 || c.AwayTimeout <= 0:
		return errors.New("server: timeouts must be positive")
	case c.MaxJoinsPerTick < 1 || c.MaxQueuedJoins < 0:
		return fmt.Errorf("server: max joins per tick %d must be at least 1 and max queued joins %d not negative", c.MaxJoinsPerTick, c.MaxQueuedJoins)
	case math.IsNaN(c.ViewRadius) || math.IsInf(c.ViewRadius, 0):
		return fmt.Errorf("server: view radius %v is not a number", c.ViewRadius)
	case c.Lane != wire.LaneDatagram && c.Lane != wire.LaneReliable:
		return fmt.Errorf("server: unknown snapshot lane %v", c.Lane)
	case c.MaxRooms < 1 || c.MaxRooms > maxRooms:
		return fmt.Errorf("server: max rooms %d outside [1, %d]", c.MaxRooms, maxRooms)
	case c.RoomGrace < 0 || c.RoomOpenEvery < 0:
		return fmt.Errorf("server: room grace %v and room open interval %v must not be negative", c.RoomGrace, c.RoomOpenEvery)
	case c.RoomOpenBurst < 1 || c.MaxRoomsPerAddress < 1:
		return fmt.Errorf("server: room open burst %d and max rooms per address %d must be at least 1", c.RoomOpenBurst, c.MaxRoomsPerAddress)
	case c.MaxHandshakes < 1:
		return fmt.Errorf("server: max handshakes %d must be at least 1", c.MaxHandshakes)
	case c.ChallengesPerSecond < 0:
		return fmt.Errorf("server: challenges per second %d must not be negative", c.ChallengesPerSecond)
	case c.MaxInputLead != 0 && time.Duration(c.MaxInputLead)*tickInterval <= c.IdleTimeout:
		// A client stalled for almost the idle timeout delivers that many inputs at once;
		// refusing them would drop an honest player.
		return fmt.Errorf("server: max input lead %d ticks (%v) must cover the idle timeout %v",
			c.MaxInputLead, time.Duration(c.MaxInputLead)*tickInterval, c.IdleTimeout)
	}
	if err := c.Arena.Validate(); err != nil {
		return fmt.Errorf("server: %w", err)
	}
	if err := c.Rules.Validate(); err != nil {
		return fmt.Errorf("server: %w", err)
	}
	return nil
}

// queuedJoins is MaxQueuedJoins, or MaxPlayers when it is zero.
func (c *Config) queuedJoins() int {
	if c.MaxQueuedJoins != 0 {
		return c.MaxQueuedJoins
	}
	return c.MaxPlayers
}

// viewRadius is the interest radius in effect (see ViewRadius); 0 means every tank.
func (c *Config) viewRadius() float64 {
	switch {
	case c.ViewRadius < 0, c.ViewRadius == 0 && c.Arena.Fits():
		return 0
	case c.ViewRadius == 0:
		return netcode.ViewRadius
	}
	return c.ViewRadius
}

// inputLead is MaxInputLead, or the lead derived from IdleTimeout when it is zero.
func (c *Config) inputLead() uint32 {
	if c.MaxInputLead != 0 {
		return c.MaxInputLead
	}
	return uint32((c.IdleTimeout + time.Second) / tickInterval)
}

func (c Config) logger() *slog.Logger {
	if c.Logger != nil {
		return c.Logger
	}
	return slog.Default()
}
