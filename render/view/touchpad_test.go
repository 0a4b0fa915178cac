package view

import (
	"math"
	"testing"

	"tanknet/netcode"
)

func TestStickInput(t *testing.T) {
	for _, c := range []struct {
		name string
		s    Stick
		want netcode.Input
	}{
		{"let go", Stick{}, netcode.Input{}},
		{"inside the dead zone", Stick{X: 0.15, Y: -0.19}, netcode.Input{}},
		{"full up drives forward", Stick{Y: -1}, netcode.Input{Throttle: 1}},
		{"full down drives back", Stick{Y: 1}, netcode.Input{Throttle: -1}},
		{"left turns counter-clockwise", Stick{X: -1}, netcode.Input{Turn: 1}},
		{"right turns clockwise", Stick{X: 1}, netcode.Input{Turn: -1}},
		{"up a little crooked only drives", Stick{X: 0.1, Y: -0.9}, netcode.Input{Throttle: 0.875}},
		{"halfway past the dead zone", Stick{Y: -0.6}, netcode.Input{Throttle: 0.5}},
		{"up and right", Stick{X: 0.6, Y: -0.6}, netcode.Input{Turn: -0.5, Throttle: 0.5}},
		{"beyond the rim is full", Stick{X: -3}, netcode.Input{Turn: 1}},
		{"NaN asks for nothing", Stick{X: math.NaN(), Y: math.Inf(1)}, netcode.Input{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := c.s.Input()
			if math.Abs(got.Turn-c.want.Turn) > 1e-12 || math.Abs(got.Throttle-c.want.Throttle) > 1e-12 {
				t.Errorf("Stick%+v.Input() = %+v, want %+v", c.s, got, c.want)
			}
		})
	}
}

// TestTouchPad: each frame is the Sets the page made since the last frame, then the
// window's Read.
func TestTouchPad(t *testing.T) {
	type set struct {
		s    Stick
		fire bool
	}
	type frame struct {
		sets     []set
		wantFire bool
	}
	up := Stick{Y: -1}
	for _, c := range []struct {
		name   string
		frames []frame
	}{
		{"nothing touched fires nothing", []frame{{nil, false}}},
		{"held fires every frame until let go", []frame{{[]set{{fire: true}}, true}, {nil, true}, {[]set{{}}, false}}},
		{"a tap between two frames fires once", []frame{{[]set{{fire: true}, {}}, true}, {nil, false}}},
		{"two taps between two frames fire once", []frame{{[]set{{fire: true}, {}, {fire: true}, {}}, true}, {nil, false}}},
		{"steering while holding fire is no new press", []frame{{[]set{{fire: true}}, true}, {[]set{{s: up, fire: true}, {fire: true}}, true}, {[]set{{}}, false}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var p TouchPad
			for i, f := range c.frames {
				for _, s := range f.sets {
					p.Set(s.s, s.fire)
				}
				if _, fire := p.Read(); fire != f.wantFire {
					t.Errorf("frame %d: Read() fires %v, want %v", i, fire, f.wantFire)
				}
			}
		})
	}
	var p TouchPad
	p.Set(Stick{X: 1, Y: -1}, false)
	if in, _ := p.Read(); in != (netcode.Input{Turn: -1, Throttle: 1}) {
		t.Errorf("after Set(up and right) Read() = %+v, want full forward turning clockwise", in)
	}
}

func TestTouchPadHUDButton(t *testing.T) {
	var p TouchPad
	if p.HUDToggled() {
		t.Error("HUDToggled() before any press = true, want false")
	}
	p.ToggleHUD()
	if !p.HUDToggled() || p.HUDToggled() {
		t.Error("after one press HUDToggled() twice, want true then false")
	}
	if (*TouchPad)(nil).HUDToggled() {
		t.Error("a nil pad's HUDToggled() = true, want false")
	}
}
