package netcode

import (
	"fmt"
	"math"
)

// Pose is where a tank is and which way it faces.
type Pose struct {
	X, Y float64 // position in world units
	// Heading is the facing in radians, counter-clockwise from +x, kept in [-pi, pi].
	Heading float64
}

// String formats p as "(x, y, headingrad)" with four decimals, for logs and test failures.
func (p Pose) String() string {
	return fmt.Sprintf("(%.4f, %.4f, %.4frad)", p.X, p.Y, p.Heading)
}

// Distance returns the straight-line distance between the positions of p and q, in world
// units. Headings are ignored.
func (p Pose) Distance(q Pose) float64 {
	return math.Hypot(q.X-p.X, q.Y-p.Y)
}

// AngleTo returns the signed shortest-arc rotation from p's heading to q's, in radians, in
// [-pi, pi].
func (p Pose) AngleTo(q Pose) float64 {
	return WrapAngle(q.Heading - p.Heading)
}

// Lerp returns the pose a fraction t of the way from p to q: position linearly, heading along
// the shortest arc. t is not clamped; t=0 gives p and t=1 gives q (heading wrapped).
func Lerp(p, q Pose, t float64) Pose {
	return Pose{
		X:       p.X + float64((q.X-p.X)*t),
		Y:       p.Y + float64((q.Y-p.Y)*t),
		Heading: WrapAngle(p.Heading + float64(p.AngleTo(q)*t)),
	}
}

// WrapAngle returns a folded into [-pi, pi]. It is exact for inputs already in range, so a
// heading that round-trips through the wire is unchanged.
func WrapAngle(a float64) float64 {
	if a >= -math.Pi && a <= math.Pi {
		return a
	}
	if math.IsNaN(a) || math.IsInf(a, 0) {
		return 0
	}
	a = math.Remainder(a, 2*math.Pi)
	return a
}
