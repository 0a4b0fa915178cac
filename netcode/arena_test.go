package netcode

import (
	"math"
	"testing"
)

func TestArenaValidate(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(a *Arena)
		wantErr bool
	}{
		{"default", func(*Arena) {}, false},
		{"zero width", func(a *Arena) { a.Width = 0 }, true},
		{"NaN height", func(a *Arena) { a.Height = math.NaN() }, true},
		{"infinite speed", func(a *Arena) { a.Speed = math.Inf(1) }, true},
		{"negative turn rate", func(a *Arena) { a.TurnRate = -1 }, true},
		{"tank wider than field", func(a *Arena) { a.TankRadius = 13 }, true},
		{"inverted obstacle", func(a *Arena) { a.Obstacles = []Rect{{MinX: 5, MinY: 5, MaxX: 4, MaxY: 6}} }, true},
		{"obstacle outside", func(a *Arena) { a.Obstacles = []Rect{{MinX: 38, MinY: 5, MaxX: 41, MaxY: 6}} }, true},
		{"no obstacles", func(a *Arena) { a.Obstacles = nil }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := DefaultArena()
			tt.edit(&a)
			if err := a.Validate(); (err != nil) != tt.wantErr {
				t.Errorf("Validate() = %v, want error %v", err, tt.wantErr)
			}
		})
	}
}

func TestContain(t *testing.T) {
	a := DefaultArena() // obstacle 0 is [9,12] x [5,9]
	tests := []struct {
		name         string
		x, y         float64
		wantX, wantY float64
	}{
		{"free", 5, 5, 5, 5},
		{"left wall", -3, 5, 0.6, 5},
		{"top right corner", 50, 50, 39.4, 24.4},
		{"touching obstacle face", 8.4, 7, 8.4, 7},
		{"overlapping left face", 8.7, 7, 8.4, 7},
		{"inside, nearest left", 9.2, 7, 8.4, 7},
		{"inside, nearest right", 11.9, 7, 12.6, 7},
		{"inside, nearest bottom", 10.5, 5.1, 10.5, 4.4},
		{"inside, nearest top", 10.5, 8.9, 10.5, 9.6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x, y := a.Contain(tt.x, tt.y)
			if !near(x, tt.wantX, 1e-12) || !near(y, tt.wantY, 1e-12) {
				t.Errorf("Contain(%v, %v) = (%v, %v), want (%v, %v)", tt.x, tt.y, x, y, tt.wantX, tt.wantY)
			}
		})
	}
}

func TestResolveContacts(t *testing.T) {
	a := openArena() // radius 0.6: centres closer than 1.2 touch
	tests := []struct {
		name  string
		in    []Pose
		want  []Pose
		pairs int
	}{
		{"apart", []Pose{{10, 10, 0}, {12, 10, 1}}, []Pose{{10, 10, 0}, {12, 10, 1}}, 0},
		{"barely apart", []Pose{{10, 10, 0}, {11.21, 10, 0}}, []Pose{{10, 10, 0}, {11.21, 10, 0}}, 0},
		{"overlap along x", []Pose{{10, 10, 0}, {11, 10, 2}}, []Pose{{9.9, 10, 0}, {11.1, 10, 2}}, 1},
		{"overlap along y", []Pose{{10, 11, 0}, {10, 10, 0}}, []Pose{{10, 11.1, 0}, {10, 9.9, 0}}, 1},
		{"same spot separates along x", []Pose{{10, 10, 0}, {10, 10, 0}}, []Pose{{9.4, 10, 0}, {10.6, 10, 0}}, 1},
		{"pushed into wall is contained", []Pose{{0.6, 10, 0}, {1.0, 10, 0}}, []Pose{{0.6, 10, 0}, {1.4, 10, 0}}, 1},
		{"three in a row", []Pose{{10, 10, 0}, {11, 10, 0}, {20, 10, 0}}, []Pose{{9.9, 10, 0}, {11.1, 10, 0}, {20, 10, 0}}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := append([]Pose(nil), tt.in...)
			n := ResolveContacts(a, got)
			if n != tt.pairs {
				t.Errorf("ResolveContacts(%v) touched %d pairs, want %d", tt.in, n, tt.pairs)
			}
			for i := range got {
				if !nearPose(got[i], tt.want[i], GridUnit) { // moved tanks are snapped to the grid
					t.Errorf("ResolveContacts(%v)[%d] = %v, want %v", tt.in, i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestArenaInside(t *testing.T) {
	a := DefaultArena()
	r := a.TankRadius
	tests := []struct {
		p    Pose
		want bool
	}{
		{Pose{X: 20, Y: 3}, true},
		{Pose{X: r, Y: r}, true},                      // touching two walls
		{Pose{X: a.Width - r, Y: a.Height - r}, true}, // and the other two
		{Pose{X: r - 1e-9, Y: 3}, false},
		{Pose{X: 20, Y: a.Height}, false},
		{Pose{X: math.NaN(), Y: 3}, false},
		{Pose{X: 20, Y: 3, Heading: math.Inf(1)}, false},
	}
	for _, tt := range tests {
		if got := a.Inside(tt.p); got != tt.want {
			t.Errorf("Inside(%v) = %v, want %v", tt.p, got, tt.want)
		}
	}
}

func TestArenaByName(t *testing.T) {
	for _, name := range ArenaNames() {
		a, err := ArenaByName(name)
		if err != nil {
			t.Fatalf("ArenaByName(%q): %v", name, err)
		}
		if err := a.Validate(); err != nil {
			t.Errorf("arena %q is invalid: %v", name, err)
		}
	}
	if _, err := ArenaByName("huge"); err == nil {
		t.Error("ArenaByName(\"huge\") succeeded, want an error naming the known arenas")
	}
	def, large := DefaultArena(), LargeArena()
	if large.Width*large.Height < 16*def.Width*def.Height || large.Speed != def.Speed || large.TurnRate != def.TurnRate {
		t.Errorf("large arena %v x %v: want at least 16 times the default's area and its movement rules", large.Width, large.Height)
	}
}
