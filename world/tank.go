package world

import (
	"time"

	"tanknet/netcode"
)

// Client is what the world asks of a tank's client: the server's session answers, a
// recording's or a test's stand-in answers for one it never had.
type Client interface {
	// InputMode is how the client asked for its inputs to be applied.
	InputMode() InputMode
	// RTT is the measured round trip to the client, 0 before there is one.
	RTT() time.Duration
	// Sent reports whether the client was sent tank id's state of tick. The world asks only
	// with Config.Interest; without, it knows the answer itself (see sight.go).
	Sent(id, tick uint32) bool
	// Arrival is when the client's input of move tick first reached the server (server
	// time), false when it is not known. The world asks when it applies the input.
	Arrival(tick uint32) (time.Duration, bool)
}

// InputMode is how a client asked for its inputs to be applied (the InputMode message).
type InputMode int32

// The input modes.
const (
	ModeServerDefault InputMode = iota // it never asked: Config.InputOnArrival decides
	ModeBuffered                       // one per tick from the buffer
	ModeOnArrival                      // as they arrive
)

// Tank is one player's tank. The world makes it (Join), changes it and holds it until the
// player goes; its driver reads it between calls, through the pointer Join returned or
// World.Tanks and Find.
type Tank struct {
	id       uint32
	client   Client
	pose     netcode.Pose
	ack      uint32                 // last applied move tick
	last     uint32                 // last queued or applied move tick
	streamed uint32                 // last move tick that came on the stream
	queue    []netcode.PendingInput // the input buffer: checked, not yet simulated, in tick order
	granted  time.Duration
	report   netcode.InputReport // this tick's input buffer report
	pace     pace                // simulated time given in the last second
	joinedAt time.Duration
	// firstTick is the first tick whose snapshot the player was sent.
	firstTick uint32
	// parting: the player left on its own while inputs it sent were still queued;
	// partTicks counts the ticks since (see parting.go).
	parting   bool
	partTicks int
	// away: the player said it stops sending for a while (away.go); its next input ends it.
	away bool

	// Combat (combat.go, fire.go).
	health         uint32
	destroyed      bool
	kills, deaths  uint32
	respawnAt      uint32                // server tick a destroyed tank comes back
	protectedUntil uint32                // first server tick without spawn protection
	shots          shotClock             // when the last accepted shot was, for the cooldown
	moves          [moveHistory]movePose // pose after each recent applied move tick
	fires          []netcode.ShotRequest // received, not yet judged
}

// arrival is when t's input of move tick reached the server, if its client knows.
func (t *Tank) arrival(tick uint32) (time.Duration, bool) {
	if t.client == nil {
		return 0, false
	}
	return t.client.Arrival(tick)
}

// Client is what answers for the tank's client: the c given to Join.
func (t *Tank) Client() Client { return t.client }

// ID is the tank's player id.
func (t *Tank) ID() uint32 { return t.id }

// Pose is where the tank is.
func (t *Tank) Pose() netcode.Pose { return t.pose }

// Ack is the last move tick applied, 0 before any.
func (t *Tank) Ack() uint32 { return t.ack }

// Health is the health points left; 0 for a wreck.
func (t *Tank) Health() uint32 { return t.health }

// Destroyed reports whether the tank is a wreck waiting to respawn.
func (t *Tank) Destroyed() bool { return t.destroyed }

// Kills and Deaths are the tank's tallies.
func (t *Tank) Kills() uint32  { return t.kills }
func (t *Tank) Deaths() uint32 { return t.deaths }

// Granted is the simulated time the tank has been given so far: its game time.
func (t *Tank) Granted() time.Duration { return t.granted }

// Waiting is how many of its inputs are checked and wait to be applied.
func (t *Tank) Waiting() int { return len(t.queue) }

// LastQueued is the newest move tick queued or applied, 0 before any.
func (t *Tank) LastQueued() uint32 { return t.last }

// InputReport is this tick's input buffer report, for the player's own state; zero when
// there is nothing to report (inputs applied on arrival).
func (t *Tank) InputReport() netcode.InputReport { return t.report }

// Combat is the tank's combat state now.
func (t *Tank) Combat() TankCombat {
	c := TankCombat{Health: t.health, Destroyed: t.destroyed}
	if t.destroyed {
		c.RespawnTick = t.respawnAt
	}
	return c
}
