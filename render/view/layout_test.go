package view

import (
	"math"
	"strings"
	"testing"
)

func TestLayout(t *testing.T) {
	tests := []struct {
		name       string
		w, h       int
		hud        bool
		wantSide   bool
		wantScale  float64
		wantPanelW float64
	}{
		{"wide window puts the panel beside", 1200, 580, true, true, (1200 - 2*Margin - PanelWidth - Margin) / 40.0, PanelWidth},
		{"hud hidden gives the arena everything", 1200, 580, false, false, (580 - 2*Margin) / 25.0, 0},
		{"narrow window floats the panel", 600, 800, true, false, (600 - 2*Margin) / 40.0, PanelWidth},
		{"tiny window floats a clipped panel", 200, 150, true, false, (200 - 2*Margin) / 40.0, 200 - 2*Margin},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Layout(tt.w, tt.h, 40, 25, tt.hud)
			if f.Side != tt.wantSide || math.Abs(f.Scale-tt.wantScale) > 1e-9 || f.Panel.W != tt.wantPanelW {
				t.Errorf("Layout(%d, %d, hud %v) = side %v scale %v panel %v, want side %v scale %v panel width %v",
					tt.w, tt.h, tt.hud, f.Side, f.Scale, f.Panel, tt.wantSide, tt.wantScale, tt.wantPanelW)
			}
			a := f.Arena
			if math.Abs(a.W/a.H-40.0/25) > 1e-9 {
				t.Errorf("arena %v lost the 40:25 aspect ratio", a)
			}
			if a.X < Margin-1e-9 || a.Y < Margin-1e-9 || a.X+a.W > float64(tt.w)-Margin+1e-9 || a.Y+a.H > float64(tt.h)-Margin+1e-9 {
				t.Errorf("arena %v leaves the %dx%d window's margins", a, tt.w, tt.h)
			}
			if f.Side && a.X+a.W > f.Panel.X-Margin+1e-9 {
				t.Errorf("arena %v overlaps the side panel %v", a, f.Panel)
			}
		})
	}
}

func TestToScreenFlipsY(t *testing.T) {
	f := Layout(1000, 700, 40, 25, false)
	a := f.Arena
	tests := []struct {
		name         string
		x, y         float64
		wantX, wantY float64
	}{
		{"world origin is the bottom-left corner", 0, 0, a.X, a.Y + a.H},
		{"top-right corner", 40, 25, a.X + a.W, a.Y},
		{"top-left corner", 0, 25, a.X, a.Y},
		{"centre", 20, 12.5, a.X + a.W/2, a.Y + a.H/2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x, y := f.ToScreen(tt.x, tt.y)
			if math.Abs(x-tt.wantX) > 1e-9 || math.Abs(y-tt.wantY) > 1e-9 {
				t.Errorf("ToScreen(%v, %v) = (%v, %v), want (%v, %v)", tt.x, tt.y, x, y, tt.wantX, tt.wantY)
			}
		})
	}
	// A tank turning left (counter-clockwise in the world) turns anticlockwise on screen
	// too: heading +90 degrees points up the screen.
	sin, cos := math.Sincos(math.Pi / 2)
	x0, y0 := f.ToScreen(20, 12)
	x1, y1 := f.ToScreen(20+cos, 12+sin)
	if math.Abs(x1-x0) > 1e-9 || y1 >= y0 {
		t.Errorf("heading pi/2 draws from (%v, %v) to (%v, %v), want straight up", x0, y0, x1, y1)
	}
}

func TestKeysInput(t *testing.T) {
	tests := []struct {
		name           string
		k              Keys
		turn, throttle float64
	}{
		{"nothing held", Keys{}, 0, 0},
		{"forward", Keys{Forward: true}, 0, 1},
		{"back", Keys{Back: true}, 0, -1},
		{"left turns counter-clockwise", Keys{Left: true}, 1, 0},
		{"right turns clockwise", Keys{Right: true}, -1, 0},
		{"opposites cancel", Keys{Forward: true, Back: true, Left: true, Right: true}, 0, 0},
		{"forward and left", Keys{Forward: true, Left: true}, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.k.Input(); got.Turn != tt.turn || got.Throttle != tt.throttle {
				t.Errorf("%+v.Input() = %+v, want turn %v throttle %v", tt.k, got, tt.turn, tt.throttle)
			}
		})
	}
}

func TestPlayerColorsDiffer(t *testing.T) {
	seen := map[[3]uint8]uint32{}
	for id := uint32(1); id <= uint32(len(players)); id++ {
		c := PlayerColor(id)
		key := [3]uint8{c.R, c.G, c.B}
		if other, ok := seen[key]; ok {
			t.Errorf("PlayerColor(%d) = PlayerColor(%d) = %v", id, other, c)
		}
		seen[key] = id
		if c == ArenaFloor || c == Background {
			t.Errorf("PlayerColor(%d) = %v is a scenery colour", id, c)
		}
	}
	if PlayerColor(0) != PlayerColor(uint32(len(players))) {
		t.Errorf("PlayerColor(0) should wrap like any other id")
	}
}

func TestCyclePreset(t *testing.T) {
	names := []string{"none", "lan", "broadband"}
	tests := []struct {
		name, cur string
		step      int
		want      string
	}{
		{"next", "none", 1, "lan"},
		{"wraps forward", "broadband", 1, "none"},
		{"previous wraps back", "none", -1, "broadband"},
		{"custom goes to the first", "custom", 1, "none"},
		{"custom back goes to the last", "custom", -1, "broadband"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CyclePreset(names, tt.cur, tt.step); got != tt.want {
				t.Errorf("CyclePreset(%v, %q, %d) = %q, want %q", names, tt.cur, tt.step, got, tt.want)
			}
		})
	}
	if got := CyclePreset(nil, "x", 1); got != "x" {
		t.Errorf("CyclePreset(nil, %q, 1) = %q, want it unchanged", "x", got)
	}
}

func TestFitLines(t *testing.T) {
	lines := []Line{{"A", Heading}, {"a1", Plain}, {"a2", Dim}, {"B", Heading}, {"b1", Plain}, {"b2", Dim}}
	if got := FitLines(lines, 6); len(got) != 6 {
		t.Errorf("FitLines fitting = %v, want all", got)
	}
	got := FitLines(lines, 4)
	want := []Line{{"A", Heading}, {"a1", Plain}, {"B", Heading}, {"b1", Plain}}
	if len(got) != len(want) {
		t.Fatalf("FitLines(4) = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("FitLines(4)[%d] = %v, want %v", i, got[i], want[i])
		}
	}
	if got := FitLines(lines, 3); len(got) != 3 || got[2] != (Line{"B", Heading}) {
		t.Errorf("FitLines(3) = %v, want the first three essential lines", got)
	}
}

func TestHelpListsEveryKey(t *testing.T) {
	for _, demo := range []bool{false, true} {
		text := ""
		for _, l := range Help(demo) {
			text += l.Text + "\n"
		}
		for _, key := range []string{"P ", "R ", "I ", "N ", "B ", "Tab", "T ", "G ", "H ", "L ", "F1", "Esc"} {
			if !strings.Contains(text, key) {
				t.Errorf("Help(%v) does not mention %q", demo, key)
			}
		}
		if !strings.Contains(text, "reconciliation waits while it is off") {
			t.Errorf("Help(%v) does not say reconciliation waits while prediction is off", demo)
		}
	}
}

// TestFrame_FollowCentresTheCamera: a following frame keeps its point at the centre of its
// rectangle wherever the point goes, shows exactly the view's extent, and Still drops it.
func TestFrame_FollowCentresTheCamera(t *testing.T) {
	f := Layout(1200, 700, 40, 25, false)
	for _, p := range [][2]float64{{20, 12.5}, {150, 90}, {3, 97}} {
		c := f.Follow(p[0], p[1])
		sx, sy := c.ToScreen(p[0], p[1])
		if cx, cy := c.Arena.X+c.Arena.W/2, c.Arena.Y+c.Arena.H/2; math.Abs(sx-cx) > 1e-9 || math.Abs(sy-cy) > 1e-9 {
			t.Errorf("Follow(%v): the point is drawn at (%v, %v), want the centre (%v, %v)", p, sx, sy, cx, cy)
		}
		x0, y0, x1, y1 := c.Visible()
		if math.Abs(x1-x0-40) > 1e-9 || math.Abs(y1-y0-25) > 1e-9 || math.Abs((x0+x1)/2-p[0]) > 1e-9 {
			t.Errorf("Follow(%v) shows [%v, %v] x [%v, %v], want 40 x 25 around it", p, x0, x1, y0, y1)
		}
		if !c.Shows(p[0], p[1], 0) || !c.Shows(x1+0.5, y0, 1) || c.Shows(x1+1.5, y0, 1) || c.Shows(p[0], y0-2, 1) {
			t.Errorf("Follow(%v): Shows disagrees with the view [%v, %v] x [%v, %v]", p, x0, x1, y0, y1)
		}
		if s := c.Still(); s.OriginX != 0 || s.OriginY != 0 || !s.Follows {
			t.Errorf("Still() = %+v, want the camera position dropped, the mode kept", s)
		}
	}
	if x, y := f.ToScreen(0, 25); x != f.Arena.X || y != f.Arena.Y {
		t.Errorf("a frame that does not follow draws (0, 25) at (%v, %v), want the arena's top-left", x, y)
	}
}

func TestFitHelpKeepsEveryKeyInASmallWindow(t *testing.T) {
	all := Help(false)
	if got := FitHelp(all, len(all)); len(got) != len(all) {
		t.Errorf("FitHelp with room for all = %d lines, want %d", len(got), len(all))
	}
	// An 800 x 450 window has room for about 24 lines of help.
	got := FitHelp(all, 24)
	if len(got) > 24 {
		t.Fatalf("FitHelp(24) = %d lines", len(got))
	}
	text := ""
	for _, l := range got {
		text += l.Text + "\n"
	}
	for _, key := range []string{"P ", "R ", "I ", "N ", "B ", "Tab", "T ", "G ", "H ", "L ", "F1", "Esc"} {
		if !strings.Contains(text, key) {
			t.Errorf("FitHelp(24) lost key %q:\n%s", key, text)
		}
	}
}
