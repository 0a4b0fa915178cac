package netcode

import "math"

// ResolveContacts pushes overlapping tanks apart, in place, and returns how many pairs
// touched: ResolveOverlaps with no overlap allowed. It is what the server does after every
// tick with contact resolved by the server (ContactServer); clients cannot predict it,
// which is why that mode is where mispredictions, corrections and snaps come from.
func ResolveContacts(a *Arena, poses []Pose) int { return ResolveOverlaps(a, poses, 0) }

// MaxPredictedOverlap is how deep two tanks may overlap with contact predicted
// (ContactPredicted) before the server separates them itself: one tank radius, so a tank's
// centre never enters another tank. Clients push their own tanks apart long before that on
// any ordinary link; only a pile-up behind a long round trip, or a client that does not push,
// gets there, and the server's push then costs those clients a correction. The server pushes
// such a pair all the way apart, not back to one radius: a pair left at the limit would be
// pushed past it again the next tick, and the corrections would follow one another.
func MaxPredictedOverlap(a *Arena) float64 { return a.TankRadius }

// ResolveOverlaps pushes apart, in place, the tanks that overlap by more than allowed (a
// depth, in world units: 2 * TankRadius minus the distance between their centres), and
// returns how many pairs it moved. Each such pair moves apart equally along the line
// between their centres until they just touch (no overlap left); tanks at the exact same spot
// separate along x, lower index to the left. Both tanks of a pair are then contained in the
// arena again, right away, and snapped to the wire grid (see Arena.Snap). A tank that
// overlaps nobody that deeply is left exactly as it was.
//
// Pairs are visited in index order, so the result depends only on the slice's order.
func ResolveOverlaps(a *Arena, poses []Pose, allowed float64) int {
	moved := 0
	touch := 2 * a.TankRadius
	minDist := touch - allowed
	for i := range poses {
		for j := i + 1; j < len(poses); j++ {
			p, q := &poses[i], &poses[j]
			dx, dy := q.X-p.X, q.Y-p.Y
			d2 := float64(dx*dx) + float64(dy*dy)
			if d2 >= float64(minDist*minDist) {
				continue
			}
			moved++
			nx, ny, d := 1.0, 0.0, 0.0
			if d2 > 0 {
				d = math.Sqrt(d2)
				nx, ny = dx/d, dy/d
			}
			push := (touch - d) / 2
			p.X, p.Y = a.Contain(p.X-float64(nx*push), p.Y-float64(ny*push))
			q.X, q.Y = a.Contain(q.X+float64(nx*push), q.Y+float64(ny*push))
			*p, *q = a.Snap(*p), a.Snap(*q)
		}
	}
	return moved
}
