package netcode

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// CorrectionConfig bounds how the visible local tank is brought back onto the predicted pose
// after a reconciliation moved the prediction. Distances are world units, angles radians.
type CorrectionConfig struct {
	// SnapDistance is the largest position residual that is smoothed; a larger one snaps.
	SnapDistance float64
	// SnapAngle is the largest heading residual (shortest arc) that is smoothed.
	SnapAngle float64
	// Duration is how long one correction takes to decay from its residual to exactly zero.
	Duration time.Duration
	// Budget is how long a correction may stay active, counting every fold into it, before
	// it is given up and escalated to a snap. It must be at least Duration.
	Budget time.Duration
	// Epsilon is the residual (units and radians) at or below which the visible pose simply
	// takes the predicted one, without starting or counting anything.
	Epsilon float64
	// Disabled snaps every residual above Epsilon: the teaching demo's "no smoothing" switch.
	Disabled bool
}

// DefaultCorrectionConfig returns the correction tuning for the default arena (tank radius
// 0.6, speed 5 units/s, turn rate 2.5 rad/s).
func DefaultCorrectionConfig() CorrectionConfig {
	return CorrectionConfig{
		SnapDistance: 2,                      // 0.4 s of full-speed driving, over three tank radii: beyond that sliding looks like a glitch
		SnapAngle:    0.8,                    // about 46 degrees, 0.32 s of full turn: a bigger swivel reads as wrong, not smooth
		Duration:     200 * time.Millisecond, // four ticks; Source smooths over 0.1 s, but our snapshots are 50 ms apart
		Budget:       500 * time.Millisecond, // ten ticks of folding without converging means sustained contact: give up and snap
		Epsilon:      1e-3,                   // a fiftieth of a pixel at 20 px/unit: not worth a correction
	}
}

// Validate reports whether c is usable: positive finite thresholds, 0 < Duration <= Budget
// and a non-negative Epsilon below both thresholds.
func (c CorrectionConfig) Validate() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"snap distance", c.SnapDistance}, {"snap angle", c.SnapAngle}} {
		if !(f.v > 0) || math.IsInf(f.v, 0) {
			return fmt.Errorf("netcode: correction %s %v must be positive and finite", f.name, f.v)
		}
	}
	if c.Duration <= 0 || c.Budget < c.Duration {
		return fmt.Errorf("netcode: correction needs 0 < duration (%v) <= budget (%v)", c.Duration, c.Budget)
	}
	if !(c.Epsilon >= 0) || c.Epsilon >= c.SnapDistance || c.Epsilon >= c.SnapAngle {
		return errors.New("netcode: correction epsilon must be non-negative and below the snap thresholds")
	}
	return nil
}

// correction is the single presentation offset of the local tank: visible minus predicted.
// Each new residual replaces it (a fold), so tails never stack.
type correction struct {
	active     bool
	dx, dy, dh float64       // offset when the current segment started
	start      time.Duration // when the current segment (the last start or fold) began
	first      time.Duration // when the correction first started; the budget counts from here
}

// offset returns the offset at now. It eases out quadratically, (1-u)^2 for the fraction u of
// Duration elapsed, so it starts at the residual, reaches exactly zero at Duration and arrives
// there with zero speed.
func (c *correction) offset(cfg *CorrectionConfig, now time.Duration) (dx, dy, dh float64) {
	if !c.active {
		return 0, 0, 0
	}
	u := float64(now-c.start) / float64(cfg.Duration)
	if u >= 1 {
		return 0, 0, 0
	}
	u = max(0, u)
	f := (1 - u) * (1 - u)
	return c.dx * f, c.dy * f, c.dh * f
}

// apply takes the residual (visible minus rebuilt, at now) of an accepted state. It reports
// whether the visible pose must snap to the predicted one.
func (c *correction) apply(cfg *CorrectionConfig, now time.Duration, dx, dy, dh float64, n *LocalCounters) (snap bool) {
	dist := math.Hypot(dx, dy)
	switch {
	case dist <= cfg.Epsilon && math.Abs(dh) <= cfg.Epsilon:
		if c.active { // the new residual says the old tail is already done
			n.CorrectionsConverged++
		}
		*c = correction{}
		return false
	case cfg.Disabled || dist > cfg.SnapDistance || math.Abs(dh) > cfg.SnapAngle ||
		(c.active && now-c.first >= cfg.Budget):
		c.snap(n)
		return true
	}
	if c.active {
		n.CorrectionsFolded++
	} else {
		n.CorrectionsStarted++
		c.first = now
	}
	c.active, c.dx, c.dy, c.dh, c.start = true, dx, dy, dh, now
	return false
}

// update ages c to now: a finished segment converges; a correction that has been kept alive
// past the budget escalates to a snap.
func (c *correction) update(cfg *CorrectionConfig, now time.Duration, n *LocalCounters) {
	switch {
	case !c.active:
	case now-c.start >= cfg.Duration:
		n.CorrectionsConverged++
		*c = correction{}
	case now-c.first >= cfg.Budget:
		c.snap(n)
	}
}

func (c *correction) snap(n *LocalCounters) {
	if c.active {
		n.CorrectionsEscalated++
	}
	n.Snaps++
	*c = correction{}
}
