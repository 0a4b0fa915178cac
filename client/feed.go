package client

import (
	"slices"
	"time"

	"tanknet/netcode"
)

// What a Game keeps for drawing shots and kills: tracers that fade, and a short kill feed.

// Tracer is a shell's path to draw for a moment: from another player's Shot message, or
// our own predicted shot (Own) the instant we fired.
type Tracer struct {
	ShooterID    uint32
	Own          bool
	At           time.Duration // local time it started
	FromX, FromY float64
	ToX, ToY     float64
	Hit          bool
}

// KillNote is one Kill message, for a kill feed.
type KillNote struct {
	At                 time.Duration
	KillerID, VictimID uint32
	ServerTick         uint32 // the tick the victim was destroyed
}

// shotSeen adds the tracer of another player's shot, which arrived at local time at; our
// own (a shot of player self) was drawn when we fired.
func (c *combat) shotSeen(at time.Duration, s netcode.Shot, self uint32) {
	if s.ShooterID == self {
		return
	}
	c.addTracer(Tracer{ShooterID: s.ShooterID, At: at, FromX: s.OriginX, FromY: s.OriginY,
		ToX: s.EndX, ToY: s.EndY, Hit: s.TargetID != 0})
}

// addTracer keeps t, dropping the tracers that have faded by its start and, beyond
// maxTracers, the oldest.
func (c *combat) addTracer(t Tracer) {
	now := t.At
	c.tracers = slices.DeleteFunc(c.tracers, func(o Tracer) bool { return now-o.At > tracerLife })
	if len(c.tracers) == maxTracers {
		c.tracers = c.tracers[1:]
	}
	c.tracers = append(c.tracers, t)
}

// kill keeps the newest maxKillNotes kills.
func (c *combat) kill(at time.Duration, k netcode.Kill) {
	if len(c.kills) == maxKillNotes {
		c.kills = c.kills[1:]
	}
	c.kills = append(c.kills, KillNote{At: at, KillerID: k.KillerID, VictimID: k.VictimID, ServerTick: k.ServerTick})
}

// tracersAt returns the tracers younger than tracerLife at local time now.
func (c *combat) tracersAt(now time.Duration) []Tracer {
	i := 0
	for i < len(c.tracers) && now-c.tracers[i].At > tracerLife {
		i++
	}
	return c.tracers[i:]
}

// Tracers returns the tracers younger than tracerLife at local time now; the slice belongs
// to the Game.
func (g *Game) Tracers(now time.Duration) []Tracer { return g.combat.tracersAt(now) }

// TracerLife is how long a tracer is shown.
func TracerLife() time.Duration { return tracerLife }

// Kills returns the newest kill notes, oldest first; the slice belongs to the Game.
func (g *Game) Kills() []KillNote { return g.combat.kills }
