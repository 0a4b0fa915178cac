package netcode

import "math"

// ResolveContacts pushes overlapping tanks apart, in place, and returns how many pairs
// touched. Each overlapping pair moves apart equally along the line between their centres;
// tanks at the exact same spot separate along x, lower index to the left. Both tanks of a
// pair are then contained in the arena again, right away, and snapped to the wire grid (see
// Arena.Snap). A tank that touches nobody is
// left exactly as it was: its owner's prediction stays exact. Only the server calls this:
// clients cannot predict it, which is why contact is where mispredictions, corrections and
// snaps come from.
//
// Pairs are visited in index order, so the result depends only on the slice's order.
func ResolveContacts(a *Arena, poses []Pose) int {
	touching := 0
	minDist := 2 * a.TankRadius
	for i := range poses {
		for j := i + 1; j < len(poses); j++ {
			p, q := &poses[i], &poses[j]
			dx, dy := q.X-p.X, q.Y-p.Y
			d2 := float64(dx*dx) + float64(dy*dy)
			if d2 >= float64(minDist*minDist) {
				continue
			}
			touching++
			nx, ny, d := 1.0, 0.0, 0.0
			if d2 > 0 {
				d = math.Sqrt(d2)
				nx, ny = dx/d, dy/d
			}
			push := (minDist - d) / 2
			p.X, p.Y = a.Contain(p.X-float64(nx*push), p.Y-float64(ny*push))
			q.X, q.Y = a.Contain(q.X+float64(nx*push), q.Y+float64(ny*push))
			*p, *q = a.Snap(*p), a.Snap(*q)
		}
	}
	return touching
}
