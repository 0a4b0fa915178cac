package netcode

import (
	"math"
	"testing"
)

func TestWrapAngle(t *testing.T) {
	tests := []struct {
		name string
		in   float64
		want float64
	}{
		{"zero", 0, 0},
		{"in range is exact", 1.2345678901234, 1.2345678901234},
		{"pi stays", math.Pi, math.Pi},
		{"minus pi stays", -math.Pi, -math.Pi},
		{"just past pi", math.Pi + 0.5, -math.Pi + 0.5},
		{"just below minus pi", -math.Pi - 0.5, math.Pi - 0.5},
		{"many turns", 7*2*math.Pi + 1, 1},
		{"NaN", math.NaN(), 0},
		{"infinity", math.Inf(1), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := WrapAngle(tt.in)
			if !near(got, tt.want, 1e-9) || got < -math.Pi || got > math.Pi {
				t.Errorf("WrapAngle(%v) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestLerp(t *testing.T) {
	tests := []struct {
		name string
		p, q Pose
		t    float64
		want Pose
	}{
		{"start", Pose{0, 0, 0}, Pose{2, 4, 1}, 0, Pose{0, 0, 0}},
		{"end", Pose{0, 0, 0}, Pose{2, 4, 1}, 1, Pose{2, 4, 1}},
		{"middle", Pose{0, 0, 0}, Pose{2, 4, 1}, 0.5, Pose{1, 2, 0.5}},
		{"shortest arc across pi", Pose{0, 0, 3}, Pose{0, 0, -3}, 0.5, Pose{0, 0, math.Pi}},
		{"shortest arc backwards", Pose{0, 0, -3}, Pose{0, 0, 3}, 0.25, Pose{0, 0, -3 - (2*math.Pi-6)/4}},
		{"short way, not through zero", Pose{0, 0, 2.5}, Pose{0, 0, -2.5}, 0.5, Pose{0, 0, math.Pi}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Lerp(tt.p, tt.q, tt.t); !nearPose(got, tt.want, 1e-12) {
				t.Errorf("Lerp(%v, %v, %v) = %v, want %v", tt.p, tt.q, tt.t, got, tt.want)
			}
		})
	}
}

func TestPoseDistanceAngleString(t *testing.T) {
	p, q := Pose{1, 1, 3}, Pose{4, 5, -3}
	if got := p.Distance(q); got != 5 {
		t.Errorf("%v.Distance(%v) = %v, want 5", p, q, got)
	}
	if got, want := p.AngleTo(q), 2*math.Pi-6; !near(got, want, 1e-12) {
		t.Errorf("%v.AngleTo(%v) = %v, want %v", p, q, got, want)
	}
	if got, want := p.String(), "(1.0000, 1.0000, 3.0000rad)"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func TestInput(t *testing.T) {
	tests := []struct {
		name    string
		in      Input
		wantErr bool
		clamped Input
	}{
		{"in range", Input{0.5, -0.5}, false, Input{0.5, -0.5}},
		{"out of range", Input{2, -9}, false, Input{1, -1}},
		{"NaN", Input{math.NaN(), 0}, true, Input{0, 0}},
		{"infinite", Input{0, math.Inf(-1)}, true, Input{0, -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.in.Validate(); (err != nil) != tt.wantErr {
				t.Errorf("%+v.Validate() = %v, want error %v", tt.in, err, tt.wantErr)
			}
			if got := tt.in.Clamp(); got != tt.clamped {
				t.Errorf("%+v.Clamp() = %+v, want %+v", tt.in, got, tt.clamped)
			}
		})
	}
}
