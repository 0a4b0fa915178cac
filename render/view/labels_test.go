package view

import "testing"

func inside(r, b Rect) bool {
	return r.X >= b.X && r.Y >= b.Y && r.X+r.W <= b.X+b.W && r.Y+r.H <= b.Y+b.H
}

func TestPlaceLabelsAboveWhenFree(t *testing.T) {
	b := Rect{X: 0, Y: 0, W: 400, H: 300}
	got := PlaceLabels([]LabelSpec{{X: 200, Y: 150, Radius: 10, W: 60, H: 14}}, b, nil)
	want := Rect{X: 170, Y: 150 - 10 - LabelGap - 14, W: 60, H: 14}
	if len(got) != 1 || got[0] != want {
		t.Errorf("PlaceLabels = %v, want %v", got, want)
	}
}

func TestPlaceLabelsStayOnScreenNearWalls(t *testing.T) {
	b := Rect{X: 10, Y: 20, W: 400, H: 300}
	specs := []LabelSpec{
		{X: 12, Y: 22, Radius: 10, W: 80, H: 14},   // top-left corner: above would leave the top
		{X: 408, Y: 200, Radius: 10, W: 80, H: 14}, // right wall: centred would leave the right
		{X: 200, Y: 318, Radius: 10, W: 80, H: 14}, // bottom wall
	}
	got := PlaceLabels(specs, b, nil)
	for i, r := range got {
		if !inside(r, b) {
			t.Errorf("label %d at %v leaves %v", i, r, b)
		}
	}
	// With no room above the corner tank, its tag goes below the tank, clear of it.
	if got[0].Y < 22+10 {
		t.Errorf("corner label %v overlaps its tank at y 22 (radius 10)", got[0])
	}
}

func TestPlaceLabelsDoNotOverlapWhenTanksAreClose(t *testing.T) {
	b := Rect{X: 0, Y: 0, W: 800, H: 600}
	var specs []LabelSpec
	for i := range 4 { // four tanks nose to tail: every tag wants the same place
		specs = append(specs, LabelSpec{X: 400 + float64(i)*8, Y: 300, Radius: 10, W: 70, H: 14})
	}
	got := PlaceLabels(specs, b, nil)
	for i := range got {
		for j := range i {
			if overlapArea(got[i], got[j]) > 0 {
				t.Errorf("labels %d %v and %d %v overlap", i, got[i], j, got[j])
			}
		}
	}
	// The first (the player's own) keeps the best place: right above its tank.
	if want := 300 - 10 - LabelGap - 14.0; got[0].Y != want {
		t.Errorf("first label at y %v, want %v (above its tank)", got[0].Y, want)
	}
}

func TestPlaceLabelsLargerThanBounds(t *testing.T) {
	b := Rect{X: 5, Y: 5, W: 40, H: 10}
	got := PlaceLabels([]LabelSpec{{X: 20, Y: 10, Radius: 3, W: 100, H: 14}}, b, nil)
	if got[0].X != 5 || got[0].Y != 5 {
		t.Errorf("oversized label at %v, want pinned to the top-left corner (5, 5)", got[0])
	}
}
