package view

import "math"

// Pane layout tuning, in logical pixels.
const (
	// TitleHeight is a pane's title line: one line of HUD text.
	TitleHeight = 20
	// StripHeight fits the timeline strip's three rows of marks.
	StripHeight = 66
	// paneGap separates a pane's parts: title, arena, strip, HUD.
	paneGap = 6
	// minPaneHUD keeps room under a demo pane's arena for the HUD's essential lines and the
	// graph beside them; a short window shrinks the arena first, down to giving the HUD 40%
	// of its height (the HUD then counts the lines it hides, see FitPanel).
	minPaneHUD = 270
)

// Pane is where the parts of one pane go: its title, its arena with the HUD panel, and its
// timeline strip. Bounds is the whole pane, for telling which pane the mouse is over.
type Pane struct {
	Bounds Rect
	Title  Rect  // zero in the single window, whose title bar names it
	Frame  Frame // the arena and the HUD panel (zero panel when the HUD is hidden)
	Strip  Rect  // under the arena; zero when the strip is hidden or the pane has none
	// Chart is the demo's server pane's row under its arena, where the clients have their
	// strips: the tour's tick trail charts each tick's motion there. Zero elsewhere, and
	// when the strip is hidden.
	Chart Rect
}

// SingleLayout places one client's pane in a screenW x screenH window: Layout, with the
// timeline strip under the arena when strip is set. A side panel keeps the full height.
func SingleLayout(screenW, screenH int, worldW, worldH float64, hud, strip bool) Pane {
	w, h := float64(screenW), float64(screenH)
	avail := Rect{X: Margin, Y: Margin, W: w - 2*Margin, H: h - 2*Margin}
	area := avail
	if strip {
		area.H -= StripHeight + paneGap
	}
	f := LayoutIn(area, worldW, worldH, hud)
	switch {
	case f.Side:
		f.Panel.H = avail.H
	case strip && f.Scale > 0: // a floating panel stays over the arena, off the strip below it
		f.Panel.H = math.Min(f.Panel.H, f.Arena.H)
	}
	p := Pane{Bounds: Rect{W: w, H: h}, Frame: f}
	if strip && f.Scale > 0 {
		p.Strip = Rect{X: f.Arena.X, Y: f.Arena.Y + f.Arena.H + paneGap, W: f.Arena.W, H: StripHeight}
	}
	return p
}

// Demo panes, left to right.
const (
	NearPane   = 0 // the player on a good network
	ServerPane = 1 // the server's authoritative state
	FarPane    = 2 // the player on a bad network
)

// DemoLayout places the three panes of the demo side by side in a screenW x screenH window:
// near player, server, far player. Each has a title line, its arena as large as fits the
// column while leaving room below for the strip (when strip is set) and the HUD (when hud is
// set), and the HUD panel under it. The server pane has no strip, but its panel starts level
// with the others' so the columns line up.
func DemoLayout(screenW, screenH int, worldW, worldH float64, hud, strip bool) [3]Pane {
	w, h := float64(screenW), float64(screenH)
	colW := math.Max(0, (w-4*Margin)/3)
	arenaTop := float64(Margin + TitleHeight + paneGap)
	below := 0.0 // what goes under the arena
	if strip {
		below += paneGap + StripHeight
	}
	if hud {
		below += paneGap + math.Min(minPaneHUD, 0.4*h) // a short window shares its height
	}
	scale := 0.0
	if worldW > 0 && worldH > 0 {
		scale = math.Max(0, math.Min(colW/worldW, (h-Margin-arenaTop-below)/worldH))
	}
	aw, ah := worldW*scale, worldH*scale
	var panes [3]Pane
	for i := range panes {
		x := Margin + float64(i)*(colW+Margin)
		p := Pane{
			Bounds: Rect{X: x - Margin/2, Y: 0, W: colW + Margin, H: h},
			Title:  Rect{X: x, Y: Margin, W: colW, H: TitleHeight},
		}
		p.Frame = Frame{Arena: Rect{X: x + (colW-aw)/2, Y: arenaTop, W: aw, H: ah}, Scale: scale, worldH: worldH}
		y := arenaTop + ah
		if strip {
			row := Rect{X: p.Frame.Arena.X, Y: y + paneGap, W: aw, H: StripHeight}
			if i != ServerPane {
				p.Strip = row
			} else {
				p.Chart = row
			}
			y += paneGap + StripHeight
		}
		if hud {
			p.Frame.Panel = Rect{X: x, Y: y + paneGap, W: colW, H: math.Max(0, h-Margin-y-paneGap)}
		}
		panes[i] = p
	}
	return panes
}

// PaneAt returns the index of the pane containing the point (x, y), or -1.
func PaneAt(panes []Pane, x, y float64) int {
	for i, p := range panes {
		if p.Bounds.Contains(x, y) {
			return i
		}
	}
	return -1
}
