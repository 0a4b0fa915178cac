package netcode

import "math"

// The wire grid. Positions and headings travel as integers (see docs/PROTOCOL.md), so the
// server must store exactly the values a client decodes, and a client replaying from a
// received baseline must step from exactly those values. Step therefore ends every step on
// the grid, on the server and in every client alike: a pose Step returns is a grid pose, and
// it survives the trip through the wire bit for bit.
const (
	// GridPerUnit is how many grid steps make one world unit. A power of two, so a grid
	// coordinate converts to float64 and back exactly; 1/1024 unit is about a millimetre on a
	// one-metre tank, far below a pixel.
	GridPerUnit = 1024
	// GridUnit is the spacing of the position grid, in world units.
	GridUnit = 1.0 / GridPerUnit
	// HeadingSteps is how many grid headings make a full turn: 2^16, so a heading fits an
	// int16's range (about 0.0055 degrees per step).
	HeadingSteps = 1 << 16
	// HeadingUnit is the spacing of the heading grid, in radians.
	HeadingUnit = 2 * math.Pi / HeadingSteps
)

// GridPose is a pose in wire units: X and Y in GridUnit steps from the arena's origin,
// Heading in HeadingUnit steps in [-HeadingSteps/2, HeadingSteps/2].
type GridPose struct {
	X, Y    uint32
	Heading int32
}

// Pose returns the world pose of g. It is exact: Snap(g.Pose()) == g.Pose() and
// ToGrid(g.Pose()) == g for every in-range g.
func (g GridPose) Pose() Pose {
	return Pose{X: float64(g.X) * GridUnit, Y: float64(g.Y) * GridUnit, Heading: float64(g.Heading) * HeadingUnit}
}

// ToGrid returns the grid pose nearest to p. For a pose already on the grid (every pose Step,
// ResolveContacts and Snap return) it is exact. Coordinates below 0 become 0; a non-finite
// value becomes 0.
func ToGrid(p Pose) GridPose {
	return GridPose{X: gridCoord(p.X), Y: gridCoord(p.Y), Heading: int32(gridHeading(WrapAngle(p.Heading)))}
}

func gridCoord(v float64) uint32 {
	v = math.Round(v * GridPerUnit)
	switch {
	case !(v > 0): // also NaN
		return 0
	case v >= math.MaxUint32:
		return math.MaxUint32
	}
	return uint32(v)
}

// gridHeading returns the heading step nearest to h, which must be in [-pi, pi].
func gridHeading(h float64) float64 { return math.Round(h / HeadingUnit) }

// SnapHeading returns the grid heading nearest to h, in [-pi, pi].
func SnapHeading(h float64) float64 { return gridHeading(WrapAngle(h)) * HeadingUnit }

// Snap returns the grid pose nearest to p that keeps a tank inside the arena's walls: a
// coordinate that rounds past a wall moves one grid step back in. Obstacles are not
// re-checked; a snapped pose may overlap one by less than half a grid step, which the next
// Step pushes out again on every side alike.
func (a *Arena) Snap(p Pose) Pose {
	return Pose{
		X:       snapInside(p.X, a.TankRadius, a.Width-a.TankRadius),
		Y:       snapInside(p.Y, a.TankRadius, a.Height-a.TankRadius),
		Heading: SnapHeading(p.Heading),
	}
}

// snapInside rounds v to the grid, keeping it within [lo, hi] (which must be at least one
// grid step wide).
func snapInside(v, lo, hi float64) float64 {
	g := math.Round(v * GridPerUnit)
	if g*GridUnit < lo {
		g = math.Ceil(lo * GridPerUnit)
	}
	if g*GridUnit > hi {
		g = math.Floor(hi * GridPerUnit)
	}
	return g * GridUnit
}
