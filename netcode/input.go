package netcode

import (
	"errors"
	"math"
)

// Input is what a driver asks of a tank for one step.
type Input struct {
	Turn     float64 // steering in [-1, 1]; +1 turns counter-clockwise at full rate
	Throttle float64 // drive in [-1, 1]; +1 drives forward at full speed
}

// ErrNotFinite reports an input value that is NaN or infinite.
var ErrNotFinite = errors.New("netcode: input is not a finite number")

// Validate reports whether in can be simulated at all: it returns ErrNotFinite for NaN or
// infinite values. Out-of-range values are valid; Clamp brings them into range.
func (in Input) Validate() error {
	for _, v := range [...]float64{in.Turn, in.Throttle} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return ErrNotFinite
		}
	}
	return nil
}

// Clamp returns in with both axes clamped to [-1, 1]. NaN becomes 0.
func (in Input) Clamp() Input {
	return Input{Turn: clampUnit(in.Turn), Throttle: clampUnit(in.Throttle)}
}

func clampUnit(v float64) float64 {
	switch {
	case v > 1:
		return 1
	case v < -1:
		return -1
	case v == v: // not NaN
		return v
	}
	return 0
}
