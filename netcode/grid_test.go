package netcode

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// TestGrid_RoundTripIsExact: every grid pose converts to a world pose and back unchanged,
// and snapping a grid pose inside the walls leaves it alone.
func TestGrid_RoundTripIsExact(t *testing.T) {
	a := DefaultArena()
	rng := rand.New(rand.NewPCG(1, 2))
	edges := []GridPose{
		{X: 615, Y: 615, Heading: -HeadingSteps / 2}, {X: 40343, Y: 25 * GridPerUnit / 2, Heading: HeadingSteps / 2},
		{X: 1 << 20, Y: 7, Heading: 0},
	}
	for i := range 10_000 {
		g := GridPose{X: rng.Uint32N(40 * GridPerUnit), Y: rng.Uint32N(25 * GridPerUnit), Heading: rng.Int32N(HeadingSteps+1) - HeadingSteps/2}
		if i < len(edges) {
			g = edges[i]
		}
		p := g.Pose()
		if back := ToGrid(p); back != g {
			t.Fatalf("ToGrid(%v.Pose() = %v) = %v, want it back", g, p, back)
		}
		if a.Inside(p) {
			if s := a.Snap(p); s != p {
				t.Fatalf("Snap(%v) = %v, want a grid pose inside the walls unchanged", p, s)
			}
		}
	}
}

// TestSnap_NearestInside: Snap moves a pose by at most half a grid step, or one step where
// rounding would cross a wall, and always lands inside.
func TestSnap_NearestInside(t *testing.T) {
	a := DefaultArena()
	rng := rand.New(rand.NewPCG(3, 4))
	for range 10_000 {
		p := Pose{X: a.TankRadius + rng.Float64()*(a.Width-2*a.TankRadius), Y: a.TankRadius + rng.Float64()*(a.Height-2*a.TankRadius),
			Heading: (2*rng.Float64() - 1) * math.Pi}
		s := a.Snap(p)
		if !a.Inside(s) || math.Abs(s.X-p.X) > GridUnit || math.Abs(s.Y-p.Y) > GridUnit || math.Abs(p.AngleTo(s)) > HeadingUnit/2+1e-15 {
			t.Fatalf("Snap(%v) = %v: want inside, within a grid step", p, s)
		}
		if ToGrid(s).Pose() != s || a.Snap(s) != s {
			t.Fatalf("Snap(%v) = %v is not a fixed point on the grid", p, s)
		}
	}
	for _, wall := range []Pose{{X: a.TankRadius, Y: 5}, {X: 5, Y: a.Height - a.TankRadius}} {
		if s := a.Snap(wall); !a.Inside(s) {
			t.Errorf("Snap(%v) = %v crossed the wall", wall, s)
		}
	}
}

// TestStep_AlwaysOnGrid drives random tanks through the default arena, obstacles and walls
// included: every pose Step and ResolveContacts return is a grid pose inside the walls, so
// the server can store exactly what it sends.
func TestStep_AlwaysOnGrid(t *testing.T) {
	a := DefaultArena()
	rng := rand.New(rand.NewPCG(5, 6))
	poses := []Pose{a.Snap(Pose{X: 4, Y: 4}), a.Snap(Pose{X: 4.5, Y: 4.2, Heading: 2}), a.Snap(Pose{X: 20, Y: 10, Heading: -1})}
	for i := range 20_000 {
		for j := range poses {
			in := Input{Turn: 2*rng.Float64() - 1, Throttle: 2*rng.Float64() - 1}
			poses[j] = Simulate(&a, poses[j], in, time.Duration(1+rng.IntN(200))*time.Millisecond)
		}
		ResolveContacts(&a, poses)
		for _, p := range poses {
			if ToGrid(p).Pose() != p || !a.Inside(p) {
				t.Fatalf("step %d: pose %v is off the grid or outside the walls", i, p)
			}
		}
	}
}
