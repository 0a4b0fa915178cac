package netcode

import (
	"fmt"
	"math"
	"time"
)

// Rules are the combat rules: the cannon, health, respawn and how far the server rewinds for
// lag compensation. The server owns them and sends them in its Welcome; clients read every
// value from there and hard-code none. Durations are whole multiples of StepInterval because
// the server counts them in ticks.
type Rules struct {
	ShotRange       float64       // how far a shell flies, world units
	Cooldown        time.Duration // least time between two accepted shots of one tank, in its game time and in server time (see world/cooldown.go)
	MaxHealth       uint32        // health of a fresh tank, health points
	Damage          uint32        // health one hit takes, health points
	RespawnDelay    time.Duration // how long a destroyed tank stays down
	SpawnProtection time.Duration // after a respawn, hits do no damage for this long
	// RewindWindow is the furthest back lag compensation reaches: a shot whose view is older
	// than this, measured from the server tick that judges it, is refused. It also bounds the
	// states of other tanks a contact push may answer (see PushAllowance).
	RewindWindow time.Duration
	// Contact says who pushes apart tanks that overlap.
	Contact ContactMode
}

// DefaultRules returns the rules tanknet servers use unless configured otherwise.
func DefaultRules() Rules {
	return Rules{
		ShotRange:       20,                      // half the arena: far shots are possible, corner to corner is not
		Cooldown:        500 * time.Millisecond,  // two shots a second: aiming matters more than hammering
		MaxHealth:       100,                     // a round number for the HUD
		Damage:          25,                      // four hits destroy a tank: one lucky shot never decides
		RespawnDelay:    2 * time.Second,         // long enough to read the scoreboard, short enough to stay in the game
		SpawnProtection: 1500 * time.Millisecond, // time to drive away from a spawn point before anyone can hurt you
		// Source's sv_maxunlag default. It covers mobile-3g's 240 ms round trip plus 100 ms
		// of interpolation plus one KCP retransmission of the shot; older views are more
		// likely a lie than a network.
		RewindWindow: time.Second,
		// Clients push their own tanks apart as part of their inputs: contact then costs
		// prediction nothing, at the price of tanks overlapping a little while they push.
		Contact: ContactPredicted,
	}
}

// Validate reports whether r is usable.
func (r Rules) Validate() error {
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"cooldown", r.Cooldown}, {"respawn delay", r.RespawnDelay}, {"spawn protection", r.SpawnProtection}, {"rewind window", r.RewindWindow}} {
		if d.v < 0 || d.v%StepInterval != 0 {
			return fmt.Errorf("netcode: rules %s %v must be a non-negative multiple of %v", d.name, d.v, StepInterval)
		}
	}
	switch {
	case !(r.ShotRange > 0) || math.IsInf(r.ShotRange, 0):
		return fmt.Errorf("netcode: shot range %v must be positive and finite", r.ShotRange)
	case r.Cooldown < StepInterval:
		return fmt.Errorf("netcode: cooldown %v must be at least one step (%v)", r.Cooldown, StepInterval)
	case r.MaxHealth == 0 || r.Damage == 0:
		return fmt.Errorf("netcode: max health %d and damage %d must be positive", r.MaxHealth, r.Damage)
	case r.RewindWindow > time.Minute:
		return fmt.Errorf("netcode: rewind window %v is over a minute", r.RewindWindow)
	case r.Contact > ContactPredicted:
		return fmt.Errorf("netcode: contact mode %d is not one of off, server and predicted", r.Contact)
	}
	return nil
}

// Ticks returns d in whole steps (StepInterval), rounded down.
func Ticks(d time.Duration) uint32 { return uint32(d / StepInterval) }
