package netcode

import "math"

// Target is a tank a shell can hit: its player id and the pose it is tested at.
type Target struct {
	ID   uint32
	Pose Pose
}

// ShotTrace is where a hitscan shell went: from its origin along the shooter's heading to
// End, Distance world units away, stopped by the tank TargetID (Hit true), by a wall or an
// obstacle, or at the end of its range.
type ShotTrace struct {
	Hit      bool
	TargetID uint32 // 0 when nothing was hit
	Distance float64
	EndX     float64
	EndY     float64
}

// Hitscan fires an instant shell from the centre of a tank at pose from, along its heading,
// at most rng world units. It stops at the first of: a wall, an obstacle, or a target's
// circle (radius a.TankRadius). Targets are tried in slice order and an exact tie goes to
// the earlier one. A target whose circle contains the origin is hit at distance 0.
//
// Hitscan is deterministic: the client's verdict on what it drew and the server's judgement
// on the rewound poses run this same code and agree bit for bit on the same inputs.
func Hitscan(a *Arena, from Pose, rng float64, targets []Target) ShotTrace {
	dx, dy := sincosDir(from.Heading)
	best := rayToWall(a, from.X, from.Y, dx, dy)
	best = min(best, max(rng, 0))
	for _, o := range a.Obstacles {
		if t, ok := rayRect(o, from.X, from.Y, dx, dy); ok && t < best {
			best = t
		}
	}
	tr := ShotTrace{Distance: best}
	for _, tg := range targets {
		if t, ok := rayCircle(tg.Pose.X-from.X, tg.Pose.Y-from.Y, dx, dy, a.TankRadius); ok && t <= tr.Distance && (!tr.Hit || t < tr.Distance) {
			tr = ShotTrace{Hit: true, TargetID: tg.ID, Distance: t}
		}
	}
	tr.EndX = from.X + float64(dx*tr.Distance)
	tr.EndY = from.Y + float64(dy*tr.Distance)
	return tr
}

// sincosDir returns the unit direction of heading h as (cos, sin), with the package's own
// platform-independent trigonometry.
func sincosDir(h float64) (float64, float64) {
	s, c := sincos(h)
	return c, s
}

// rayToWall returns how far the ray from (x, y) along (dx, dy) travels before it leaves
// [0, Width] x [0, Height]; 0 when it starts outside.
func rayToWall(a *Arena, x, y, dx, dy float64) float64 {
	t := math.Inf(1)
	if dx > 0 {
		t = min(t, (a.Width-x)/dx)
	} else if dx < 0 {
		t = min(t, -x/dx)
	}
	if dy > 0 {
		t = min(t, (a.Height-y)/dy)
	} else if dy < 0 {
		t = min(t, -y/dy)
	}
	return max(t, 0)
}

// rayRect returns the distance at which the ray from (x, y) along (dx, dy) enters r, and
// whether it does at a distance >= 0 (0 when it starts inside).
func rayRect(r Rect, x, y, dx, dy float64) (float64, bool) {
	lo, hi := math.Inf(-1), math.Inf(1)
	for _, ax := range [2][4]float64{{x, dx, r.MinX, r.MaxX}, {y, dy, r.MinY, r.MaxY}} {
		p, d, mn, mx := ax[0], ax[1], ax[2], ax[3]
		if d == 0 {
			if p < mn || p > mx {
				return 0, false
			}
			continue
		}
		t1, t2 := (mn-p)/d, (mx-p)/d
		lo, hi = max(lo, min(t1, t2)), min(hi, max(t1, t2))
	}
	if hi < max(lo, 0) {
		return 0, false
	}
	return max(lo, 0), true
}

// rayCircle returns the distance along the unit direction (dx, dy) at which a ray from the
// origin enters a circle of radius r centred at (cx, cy), and whether it does at a distance
// >= 0 (0 when the origin is inside the circle).
func rayCircle(cx, cy, dx, dy, r float64) (float64, bool) {
	along := float64(cx*dx) + float64(cy*dy)
	d2 := float64(cx*cx) + float64(cy*cy)
	r2 := float64(r * r)
	if d2 <= r2 {
		return 0, true
	}
	if along <= 0 {
		return 0, false
	}
	perp2 := d2 - float64(along*along)
	if perp2 > r2 {
		return 0, false
	}
	return along - math.Sqrt(r2-perp2), true
}
