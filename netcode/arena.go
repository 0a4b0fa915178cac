package netcode

import (
	"errors"
	"fmt"
	"math"
)

// Rect is an axis-aligned box in world units.
type Rect struct {
	MinX, MinY, MaxX, MaxY float64
}

// Arena is the playing field and the movement rules. Server and clients must use identical
// values (the server sends its arena in the Welcome message) or prediction diverges.
type Arena struct {
	Width, Height float64 // the field spans [0, Width] x [0, Height]
	Obstacles     []Rect  // static boxes tanks cannot enter
	TankRadius    float64 // collision radius of every tank
	Speed         float64 // forward speed at throttle 1, units per second
	TurnRate      float64 // turn rate at turn 1, radians per second
}

// DefaultArena returns the arena tanknet servers use unless configured otherwise: a 40 x 25
// field with a few boxes to steer around.
func DefaultArena() Arena {
	return Arena{
		Width:  40,
		Height: 25,
		Obstacles: []Rect{
			{MinX: 9, MinY: 5, MaxX: 12, MaxY: 9},        // lower-left block
			{MinX: 28, MinY: 16, MaxX: 31, MaxY: 20},     // upper-right block
			{MinX: 18.5, MinY: 11, MaxX: 21.5, MaxY: 14}, // centre pillar
			{MinX: 28, MinY: 4, MaxX: 33, MaxY: 5.5},     // lower-right wall
			{MinX: 7, MinY: 19.5, MaxX: 12, MaxY: 21},    // upper-left wall
		},
		TankRadius: 0.6, // a tank is a little over a unit long
		Speed:      5,   // crosses the arena in 8 s: quick, but easy to steer
		TurnRate:   2.5, // a full turn in 2.5 s
	}
}

// MaxArenaSide is the longest arena side, in world units: grid coordinates then stay below
// 2^26, far inside the wire's uint32.
const MaxArenaSide = 1 << 16

// Validate reports whether a is usable: positive finite size up to MaxArenaSide, radius,
// speed and turn rate, room for a tank between the walls, and obstacles with min <= max
// inside the field.
func (a *Arena) Validate() error {
	finitePos := func(name string, v float64) error {
		if !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("netcode: arena %s %v must be positive and finite", name, v)
		}
		return nil
	}
	for _, c := range []struct {
		name string
		v    float64
	}{{"width", a.Width}, {"height", a.Height}, {"tank radius", a.TankRadius}, {"speed", a.Speed}, {"turn rate", a.TurnRate}} {
		if err := finitePos(c.name, c.v); err != nil {
			return err
		}
	}
	if a.Width-2*a.TankRadius < GridUnit || a.Height-2*a.TankRadius < GridUnit {
		return errors.New("netcode: arena is too small for a tank (the walls must leave at least one grid step)")
	}
	if a.Width > MaxArenaSide || a.Height > MaxArenaSide {
		return fmt.Errorf("netcode: arena %v x %v is larger than %v, the most the wire grid covers", a.Width, a.Height, MaxArenaSide)
	}
	for i, r := range a.Obstacles {
		if !(r.MinX <= r.MaxX && r.MinY <= r.MaxY) || r.MinX < 0 || r.MinY < 0 || r.MaxX > a.Width || r.MaxY > a.Height {
			return fmt.Errorf("netcode: obstacle %d %v is empty or outside the arena", i, r)
		}
	}
	return nil
}

// Inside reports whether p is finite and a tank centred there stays within the walls. Every
// pose Step and ResolveContacts return is Inside.
func (a *Arena) Inside(p Pose) bool {
	for _, v := range [...]float64{p.X, p.Y, p.Heading} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	r := a.TankRadius
	return p.X >= r && p.X <= a.Width-r && p.Y >= r && p.Y <= a.Height-r
}

// Contain returns the position nearest to (x, y) where a tank of the arena's radius overlaps
// no obstacle and stays inside the walls. Obstacles are resolved first, then walls, in slice
// order, so the result is deterministic.
func (a *Arena) Contain(x, y float64) (float64, float64) {
	r := a.TankRadius
	for _, o := range a.Obstacles {
		x, y = pushOutOfRect(o, x, y, r)
	}
	return clamp(x, r, a.Width-r), clamp(y, r, a.Height-r)
}

// pushOutOfRect moves a circle of radius r centred at (x, y) out of o along the shortest way.
func pushOutOfRect(o Rect, x, y, r float64) (float64, float64) {
	cx, cy := clamp(x, o.MinX, o.MaxX), clamp(y, o.MinY, o.MaxY)
	dx, dy := x-cx, y-cy
	d2 := float64(dx*dx) + float64(dy*dy)
	if d2 >= float64(r*r) {
		return x, y
	}
	if d2 > 0 { // centre outside the box: push along the normal from its nearest point
		d := math.Sqrt(d2)
		return cx + float64(dx*(r/d)), cy + float64(dy*(r/d))
	}
	// Centre inside the box: leave through the nearest face.
	left, right := x-o.MinX, o.MaxX-x
	down, up := y-o.MinY, o.MaxY-y
	switch m := min(left, right, down, up); m {
	case left:
		return o.MinX - r, y
	case right:
		return o.MaxX + r, y
	case down:
		return x, o.MinY - r
	default:
		return x, o.MaxY + r
	}
}

func clamp(v, lo, hi float64) float64 {
	return max(lo, min(hi, v))
}
