package view

import (
	"testing"
	"time"
)

func TestScrubTo(t *testing.T) {
	bar := Rect{X: 100, Y: 0, W: 400, H: 10}
	for _, c := range []struct {
		x    float64
		want time.Duration
	}{
		{100, 0}, {300, 30 * time.Second}, {500, time.Minute}, {0, 0}, {900, time.Minute}, {200, 15 * time.Second},
	} {
		if got := ScrubTo(c.x, bar, time.Minute); got != c.want {
			t.Errorf("x=%v on a bar from 100 to 500 over 60 s: %v, want %v", c.x, got, c.want)
		}
	}
	if got := ScrubTo(10, Rect{}, time.Minute); got != 0 {
		t.Errorf("an empty bar: %v, want 0", got)
	}
}
