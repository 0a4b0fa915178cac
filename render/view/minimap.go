package view

import "math"

// Minimap tuning, in logical pixels.
const (
	minimapWidth  = 180 // in the view's corner; the height follows the arena's aspect ratio
	minimapMargin = 8   // between the minimap and what is around it
)

// MinimapPlaces returns the two places the minimap of a worldW x worldH field may go in f:
// at the bottom of a side panel, as wide as the panel allows in its bottom quarter (ok false
// when f has no side
// panel or it is too small), and in the view's top-right corner, over the field. A window
// uses the panel's place unless the HUD text reaches down into it.
func MinimapPlaces(f Frame, worldW, worldH float64) (panel Rect, ok bool, corner Rect) {
	aspect := worldW / worldH
	w := math.Min(minimapWidth, f.Arena.W/3)
	corner = Rect{X: f.Arena.X + f.Arena.W - w - minimapMargin, Y: f.Arena.Y + minimapMargin, W: w, H: w / aspect}
	if !f.Side || f.Panel.W <= 0 {
		return Rect{}, false, corner
	}
	pw := math.Min(2*minimapWidth, f.Panel.W-2*minimapMargin)
	ph := math.Min(pw/aspect, f.Panel.H/4) // the HUD text keeps three quarters of the panel
	pw = ph * aspect
	if pw < minimapWidth/2 {
		return Rect{}, false, corner
	}
	return Rect{X: f.Panel.X + minimapMargin, Y: f.Panel.Y + f.Panel.H - ph - minimapMargin, W: pw, H: ph}, true, corner
}
