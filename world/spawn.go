package world

import (
	"math"
	"slices"

	"tanknet/netcode"
)

// spawnPoints are where tanks enter first, tried in order; each faces the arena's centre
// line. They are given for the 40 x 25 default arena and scaled to any other size.
var spawnPoints = []netcode.Pose{
	{X: 4, Y: 4, Heading: 0}, {X: 36, Y: 21, Heading: 3.14159},
	{X: 36, Y: 4, Heading: 3.14159}, {X: 4, Y: 21, Heading: 0},
	{X: 20, Y: 3, Heading: 1.5708}, {X: 20, Y: 22, Heading: -1.5708},
	{X: 3, Y: 12.5, Heading: 0}, {X: 37, Y: 12.5, Heading: 3.14159},
}

// spawnHash scatters where the lattice search of spawnPose starts (Knuth's multiplicative
// hash), so consecutive joins usually find a free point at the first try.
const spawnHash = 2654435761

// spawnPose returns, on the wire grid, the first spawn point clear of every tank; when all
// are taken, a free point of a lattice over the whole field (clear of tanks and obstacles,
// facing the centre), searched from a place that moves on with every id; and when even
// that is full, a spawn point derived from the next id.
func (w *World) spawnPose() netcode.Pose {
	a := &w.cfg.Arena
	gap := 4 * a.TankRadius
	free := func(p netcode.Pose) bool {
		return !slices.ContainsFunc(w.tanks, func(o *Tank) bool { return o.pose.Distance(p) < gap })
	}
	scale := func(p netcode.Pose) netcode.Pose { // fit the points to any arena size, on the wire grid
		x, y := a.Contain(p.X/40*a.Width, p.Y/25*a.Height)
		return a.Snap(netcode.Pose{X: x, Y: y, Heading: p.Heading})
	}
	for _, sp := range spawnPoints {
		if sp = scale(sp); free(sp) {
			return sp
		}
	}
	r := a.TankRadius
	cols, rows := int((a.Width-2*r)/gap)+1, int((a.Height-2*r)/gap)+1
	n := uint64(cols) * uint64(rows)
	start := uint64(w.nextID) * spawnHash % n
	for i := range n {
		k := (start + i) % n
		x, y := r+float64(k%uint64(cols))*gap, r+float64(k/uint64(cols))*gap
		p := a.Snap(netcode.Pose{X: x, Y: y, Heading: math.Atan2(a.Height/2-y, a.Width/2-x)})
		if cx, cy := a.Contain(p.X, p.Y); cx != p.X || cy != p.Y {
			continue // overlapping an obstacle
		}
		if free(p) {
			return p
		}
	}
	return scale(spawnPoints[int(w.nextID)%len(spawnPoints)])
}
