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

// receiveShot adds another player's tracer; our own was drawn when we fired.
func (g *Game) receiveShot(at time.Duration, s netcode.Shot) {
	if s.ShooterID == g.welcome.PlayerID {
		return
	}
	g.addTracer(Tracer{ShooterID: s.ShooterID, At: at, FromX: s.OriginX, FromY: s.OriginY,
		ToX: s.EndX, ToY: s.EndY, Hit: s.TargetID != 0})
}

func (g *Game) addTracer(t Tracer) {
	now := t.At
	g.tracers = slices.DeleteFunc(g.tracers, func(o Tracer) bool { return now-o.At > tracerLife })
	if len(g.tracers) == maxTracers {
		g.tracers = g.tracers[1:]
	}
	g.tracers = append(g.tracers, t)
}

func (g *Game) receiveKill(at time.Duration, k netcode.Kill) {
	if len(g.kills) == maxKillNotes {
		g.kills = g.kills[1:]
	}
	g.kills = append(g.kills, KillNote{At: at, KillerID: k.KillerID, VictimID: k.VictimID, ServerTick: k.ServerTick})
}

// Tracers returns the tracers younger than tracerLife at local time now; the slice belongs
// to the Game.
func (g *Game) Tracers(now time.Duration) []Tracer {
	i := 0
	for i < len(g.tracers) && now-g.tracers[i].At > tracerLife {
		i++
	}
	return g.tracers[i:]
}

// TracerLife is how long a tracer is shown.
func TracerLife() time.Duration { return tracerLife }

// Kills returns the newest kill notes, oldest first; the slice belongs to the Game.
func (g *Game) Kills() []KillNote { return g.kills }
