package view

import (
	"math"
	"sync"

	"tanknet/netcode"
)

// stickDeadZone is the part of each axis of the stick, as a fraction of its radius, that
// asks for nothing: a thumb resting near the centre, or pushing straight up a little
// crooked, neither creeps nor turns.
const stickDeadZone = 0.2

// Stick is where a touch screen's virtual stick is held: the thumb's offset from the
// stick's centre in stick radii, on the screen's axes (+X right, +Y down). The zero Stick
// is let go.
type Stick struct{ X, Y float64 }

// Input returns the tank input for s, the analog counterpart of Keys.Input: up drives
// forward and down back, left turns counter-clockwise (Turn +1) and right clockwise, each
// axis zero inside the dead zone and then rising linearly to 1 at the stick's rim. NaN or
// infinite offsets ask for nothing.
func (s Stick) Input() netcode.Input {
	return netcode.Input{Turn: -stickAxis(s.X), Throttle: -stickAxis(s.Y)}
}

// stickAxis maps one axis of the stick, in radii, to [-1, 1] past the dead zone.
func stickAxis(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	m := (math.Abs(v) - stickDeadZone) / (1 - stickDeadZone)
	if m <= 0 {
		return 0
	}
	return math.Copysign(min(m, 1), v)
}

// TouchPad is what a page's touch controls ask for: the stick, the fire button, and the HUD
// button that does what H does on a keyboard. The
// page sets it on every change of a touch (Set, from the browser's event handlers) and the
// window reads it each frame (Read), from another goroutine: it is safe for concurrent use.
// A tap of the fire button shorter than a frame still fires once. The zero TouchPad asks
// for nothing.
type TouchPad struct {
	mu     sync.Mutex
	stick  Stick
	fire   bool // the fire button is held
	tapped bool // it was pressed since the last Read
	hud    bool // the HUD button was pressed since the last HUDToggled
}

// Set records the stick's offset and whether the fire button is held.
func (p *TouchPad) Set(s Stick, fire bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stick = s
	p.tapped = p.tapped || (fire && !p.fire)
	p.fire = fire
}

// Read returns the tank input the stick asks for, and whether to fire: the button is held,
// or was pressed since the last Read.
func (p *TouchPad) Read() (netcode.Input, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fire := p.fire || p.tapped
	p.tapped = false
	return p.stick.Input(), fire
}

// ToggleHUD records a press of the HUD button.
func (p *TouchPad) ToggleHUD() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.hud = true
}

// HUDToggled reports whether the HUD button was pressed since the last call; presses
// between two calls count once. A nil pad has no button.
func (p *TouchPad) HUDToggled() bool {
	if p == nil {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	pressed := p.hud
	p.hud = false
	return pressed
}
