package view

import "math"

// Layout tuning, in logical pixels.
const (
	// Margin keeps the arena and the panel off the window edge and apart.
	Margin = 12
	// PanelWidth fits the longest HUD line (43 characters of 13 px Go Mono) plus padding.
	PanelWidth = 370
	// minSideArena is the narrowest arena worth keeping beside the panel; in a narrower
	// window the panel floats over the arena instead.
	minSideArena = 360
	// GraphHeight is the live graph's height inside the panel.
	GraphHeight = 120
)

// Rect is a screen rectangle in logical pixels.
type Rect struct{ X, Y, W, H float64 }

// Contains reports whether the point (x, y) is inside r.
func (r Rect) Contains(x, y float64) bool {
	return x >= r.X && x < r.X+r.W && y >= r.Y && y < r.Y+r.H
}

// Frame is where things go in a window of one size: the arena scaled to fit and keeping its
// aspect ratio, and the HUD panel beside it (or over it when the window is narrow).
type Frame struct {
	Arena Rect    // the arena's on-screen rectangle
	Scale float64 // pixels per world unit
	Panel Rect    // the HUD panel; zero when the HUD is hidden
	Side  bool    // the panel sits beside the arena rather than over it
	// worldH is the arena height in world units, to flip y: world y points up, screen y down.
	worldH float64
	// Camera: a Frame that Follows shows only part of the arena, worldW x worldH units
	// whose lower-left corner is the world point (OriginX, OriginY); Arena is then that
	// view's rectangle on screen. See Follow.
	Follows          bool
	OriginX, OriginY float64
}

// Follow returns f as a camera view centred on the world point (x, y): what it shows moves
// with that point, the local tank on an arena larger than the window's view.
func (f Frame) Follow(x, y float64) Frame {
	if f.Scale <= 0 {
		return f
	}
	f.Follows = true
	f.OriginX, f.OriginY = x-f.Arena.W/f.Scale/2, y-f.worldH/2
	return f
}

// Still returns f without its camera position, for caches that depend on the layout only.
func (f Frame) Still() Frame {
	f.OriginX, f.OriginY = 0, 0
	return f
}

// Visible returns the world rectangle f shows: [x0, x1] x [y0, y1].
func (f Frame) Visible() (x0, y0, x1, y1 float64) {
	if f.Scale <= 0 {
		return 0, 0, 0, 0
	}
	return f.OriginX, f.OriginY, f.OriginX + f.Arena.W/f.Scale, f.OriginY + f.worldH
}

// Shows reports whether f shows any of a disc of radius r around world point (x, y).
func (f Frame) Shows(x, y, r float64) bool {
	x0, y0, x1, y1 := f.Visible()
	return f.Scale > 0 && x >= x0-r && x <= x1+r && y >= y0-r && y <= y1+r
}

// Layout places an arena of worldW x worldH units in a screenW x screenH window, as large as
// fits, centred across and against the top. With hud
// set it reserves a panel on the right when there is room, or floats one over the arena's
// top-left corner when there is not.
func Layout(screenW, screenH int, worldW, worldH float64, hud bool) Frame {
	w, h := float64(screenW), float64(screenH)
	return LayoutIn(Rect{X: Margin, Y: Margin, W: w - 2*Margin, H: h - 2*Margin}, worldW, worldH, hud)
}

// LayoutIn is Layout within the area avail of the window, margins already taken off.
func LayoutIn(avail Rect, worldW, worldH float64, hud bool) Frame {
	f := Frame{worldH: worldH}
	if hud {
		if avail.W-PanelWidth-Margin >= minSideArena {
			f.Side = true
			f.Panel = Rect{X: avail.X + avail.W - PanelWidth, Y: avail.Y, W: PanelWidth, H: avail.H}
			avail.W -= PanelWidth + Margin
		} else {
			f.Panel = Rect{X: avail.X, Y: avail.Y, W: math.Min(PanelWidth, avail.W), H: avail.H}
		}
	}
	if worldW <= 0 || worldH <= 0 || avail.W <= 0 || avail.H <= 0 {
		return f
	}
	f.Scale = math.Min(avail.W/worldW, avail.H/worldH)
	aw, ah := worldW*f.Scale, worldH*f.Scale
	f.Arena = Rect{X: avail.X + (avail.W-aw)/2, Y: avail.Y, W: aw, H: ah} // top-aligned, like the panel
	return f
}

// PanelOverArena reports whether the HUD panel covers part of the arena.
func (f Frame) PanelOverArena() bool {
	return f.Panel.W > 0 && f.Panel.H > 0 && f.Panel.Intersects(f.Arena)
}

// Intersects reports whether r and o share any area.
func (r Rect) Intersects(o Rect) bool {
	return r.X < o.X+o.W && o.X < r.X+r.W && r.Y < o.Y+o.H && o.Y < r.Y+r.H
}

// ToScreen returns the screen point of world point (x, y).
func (f Frame) ToScreen(x, y float64) (sx, sy float64) {
	return f.Arena.X + (x-f.OriginX)*f.Scale, f.Arena.Y + (f.worldH-(y-f.OriginY))*f.Scale
}
