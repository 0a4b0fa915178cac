package netcode

import (
	"math"
	"testing"
)

func TestHitscan(t *testing.T) {
	a := DefaultArena() // obstacles include the centre pillar [18.5, 21.5] x [11, 14]
	east := Pose{X: 2, Y: 2, Heading: 0}
	tests := []struct {
		name     string
		from     Pose
		rng      float64
		targets  []Target
		wantHit  uint32
		wantDist float64
	}{
		{"nothing in range", east, 10, nil, 0, 10},
		{"wall before range", east, 100, nil, 0, 38},
		{"tank ahead", east, 20, []Target{{ID: 7, Pose: Pose{X: 8, Y: 2}}}, 7, 5.4},
		{"tank grazed", east, 20, []Target{{ID: 7, Pose: Pose{X: 8, Y: 2.6}}}, 7, 6},
		{"tank just beside", east, 20, []Target{{ID: 7, Pose: Pose{X: 8, Y: 2.61}}}, 0, 20},
		{"tank behind", east, 20, []Target{{ID: 7, Pose: Pose{X: 1, Y: 2}}}, 0, 20},
		{"tank beyond range", east, 5, []Target{{ID: 7, Pose: Pose{X: 8, Y: 2}}}, 0, 5},
		{"nearest of two", east, 20, []Target{{ID: 3, Pose: Pose{X: 12, Y: 2}}, {ID: 4, Pose: Pose{X: 6, Y: 2}}}, 4, 3.4},
		{"tie goes to the first", east, 20, []Target{{ID: 3, Pose: Pose{X: 6, Y: 2}}, {ID: 4, Pose: Pose{X: 6, Y: 2}}}, 3, 3.4},
		{"overlapping the muzzle", east, 20, []Target{{ID: 5, Pose: Pose{X: 2.5, Y: 2}}}, 5, 0},
		{"pillar shields a tank", Pose{X: 15, Y: 12.5}, 20, []Target{{ID: 7, Pose: Pose{X: 25, Y: 12.5}}}, 0, 3.5},
		{"pillar from above", Pose{X: 20, Y: 20, Heading: -math.Pi / 2}, 20, nil, 0, 6},
	}
	for _, tt := range tests {
		got := Hitscan(&a, tt.from, tt.rng, tt.targets)
		if got.Hit != (tt.wantHit != 0) || got.TargetID != tt.wantHit || math.Abs(got.Distance-tt.wantDist) > 1e-6 {
			t.Errorf("%s: Hitscan = %+v, want target %d at %v", tt.name, got, tt.wantHit, tt.wantDist)
		}
		dx, dy := got.EndX-tt.from.X, got.EndY-tt.from.Y
		if d := math.Hypot(dx, dy); math.Abs(d-got.Distance) > 1e-9 {
			t.Errorf("%s: end point %v,%v is %v from the origin, Distance says %v", tt.name, got.EndX, got.EndY, d, got.Distance)
		}
	}
}

func BenchmarkHitscan(b *testing.B) {
	a := DefaultArena()
	targets := make([]Target, 16)
	for i := range targets {
		targets[i] = Target{ID: uint32(i + 1), Pose: Pose{X: float64(3 + 2*i), Y: 12 + float64(i%3)}}
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Hitscan(&a, Pose{X: 1, Y: 12, Heading: float64(i%7) * 0.01}, 20, targets)
	}
}
