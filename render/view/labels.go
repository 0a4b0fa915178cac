package view

import "math"

// LabelGap is the air between a tank and its name tag, in pixels.
const LabelGap = 3

// LabelSpec is a name tag to place: the tank it names, on screen, and the tag's size.
type LabelSpec struct {
	X, Y   float64 // the tank's centre on screen
	Radius float64 // how far the tank reaches from its centre, in pixels (the tag stays clear of it)
	W, H   float64 // the tag's size in pixels
}

// PlaceLabels returns a rectangle for each tag, in order, inside bounds: above its tank when
// that is free, else below it, else further up or down; earlier tags win the free places, so
// pass the most important first (the player's own). A tag never leaves bounds (one larger
// than bounds is pinned to its top-left corner) and covers its own tank or another tag only
// when every candidate place does; then it takes the place that overlaps least. It appends
// to dst[:0] and returns it.
func PlaceLabels(specs []LabelSpec, bounds Rect, dst []Rect) []Rect {
	dst = dst[:0]
	for _, s := range specs {
		above := s.Y - s.Radius - LabelGap - s.H
		below := s.Y + s.Radius + LabelGap
		x := s.X - s.W/2
		tank := Rect{X: s.X - s.Radius, Y: s.Y - s.Radius, W: 2 * s.Radius, H: 2 * s.Radius}
		best, bestOverlap := Rect{}, math.Inf(1)
		for _, y := range [...]float64{above, below, above - s.H, below + s.H, above - 2*s.H, below + 2*s.H} {
			r := clampRect(Rect{X: x, Y: y, W: s.W, H: s.H}, bounds)
			o := overlapArea(r, tank) // pushed against a wall, a tag may land on its own tank
			for _, p := range dst {
				o += overlapArea(r, p)
			}
			if o < bestOverlap {
				best, bestOverlap = r, o
			}
			if o == 0 {
				break
			}
		}
		dst = append(dst, best)
	}
	return dst
}

// clampRect moves r inside bounds without resizing it; when r is larger than bounds it sits
// at bounds' top-left corner.
func clampRect(r, bounds Rect) Rect {
	r.X = math.Max(bounds.X, math.Min(r.X, bounds.X+bounds.W-r.W))
	r.Y = math.Max(bounds.Y, math.Min(r.Y, bounds.Y+bounds.H-r.H))
	return r
}

// overlapArea returns the area a and b share.
func overlapArea(a, b Rect) float64 {
	w := math.Min(a.X+a.W, b.X+b.W) - math.Max(a.X, b.X)
	h := math.Min(a.Y+a.H, b.Y+b.H) - math.Max(a.Y, b.Y)
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h
}
