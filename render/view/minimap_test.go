package view

import "testing"

// TestMinimapPlaces: a side panel holds the minimap at its bottom, inside the panel and off
// the field; a window with the panel over the field, or no HUD, has only the corner place,
// inside the view.
func TestMinimapPlaces(t *testing.T) {
	side := SingleLayout(1280, 720, 40, 25, true, true).Frame
	panel, ok, corner := MinimapPlaces(side, 160, 100)
	inside := func(r, in Rect) bool {
		return r.W > 0 && r.X >= in.X && r.Y >= in.Y && r.X+r.W <= in.X+in.W && r.Y+r.H <= in.Y+in.H
	}
	if !ok || !inside(panel, side.Panel) || panel.Intersects(side.Arena) {
		t.Errorf("1280x720: panel place %+v (ok %v), want it inside the side panel %+v and off the field %+v", panel, ok, side.Panel, side.Arena)
	}
	if panel.W/panel.H != 1.6 {
		t.Errorf("panel place %+v: aspect %v, want the field's 1.6", panel, panel.W/panel.H)
	}
	for _, f := range []Frame{SingleLayout(600, 450, 40, 25, true, true).Frame, SingleLayout(1280, 720, 40, 25, false, true).Frame} {
		if _, ok, corner := MinimapPlaces(f, 160, 100); ok || !inside(corner, f.Arena) {
			t.Errorf("no side panel: panel place ok %v, corner %+v; want only the corner, inside %+v", ok, corner, f.Arena)
		}
	}
	if !inside(corner, side.Arena) {
		t.Errorf("corner %+v is not inside the view %+v", corner, side.Arena)
	}
}
