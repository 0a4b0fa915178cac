package netcode

import (
	"fmt"
	"math"
)

// View says where in the past a client drew one remote tank: between that tank's states of
// server ticks From and To, a Fraction of the way from the first to the second. A hold (no
// pair brackets the render time) and a teleport (the later state of the pair is a respawn,
// Interpolator.PushTeleport) are both drawn as a single state and described with From == To
// and Fraction 0.
//
// A View is what a client reports when it fires, and what the server rewinds to. Together
// with the two states it names, it determines the drawn pose exactly (see DrawnPose).
type View struct {
	From, To uint32  // server ticks of the bracketing states, From <= To
	Fraction float64 // in [0, 1): 0 shows From's state
}

// MaxViewSpan is the furthest apart, in server ticks, the two states one View may blend:
// 200 ms, a bracket across up to three lost snapshots. A blend of states further apart
// draws a pose the tank may never have been near (the chord of a turn), so an Interpolator
// holds the older state across a longer gap, and a server refuses a shot whose view spans
// more. Turning at the default arena's full rate, a blend across MaxViewSpan ticks strays
// at most 0.07 units from the arc the tank drove (its radius is 0.6).
const MaxViewSpan = 4

// Tick returns the view as a fractional server tick: From + Fraction * (To - From).
func (v View) Tick() float64 {
	return float64(v.From) + float64(v.Fraction*float64(v.To-v.From))
}

// Held reports whether v shows one state rather than a blend of two.
func (v View) Held() bool { return v.From == v.To }

// String formats v as "from->to@fraction", for logs and test failures.
func (v View) String() string { return fmt.Sprintf("%d->%d@%.4f", v.From, v.To, v.Fraction) }

// Valid reports whether v is well formed: From <= To <= From + MaxViewSpan, a finite
// Fraction in [0, 1), and 0 for a held view. It says nothing about whether the ticks are
// recent.
func (v View) Valid() bool {
	switch {
	case v.From > v.To, v.To-v.From > MaxViewSpan, math.IsNaN(v.Fraction), !(v.Fraction >= 0 && v.Fraction < 1):
		return false
	case v.Held():
		return v.Fraction == 0
	}
	return true
}

// DrawnPose returns the pose of a remote tank drawn at view v, given its states at v.From
// (from) and v.To (to). This one function defines "what was drawn": the client's
// Interpolator draws with it and the server's lag compensation rewinds with it, so the same
// view and states give the same bits on both sides.
func DrawnPose(from, to Pose, v View) Pose {
	if v.Held() {
		return from
	}
	return Lerp(from, to, v.Fraction)
}
