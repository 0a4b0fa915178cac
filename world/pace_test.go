package world

import (
	"testing"
	"time"
)

func TestPace_LeftForgetsGrantsOlderThanTheWindow(t *testing.T) {
	var p pace
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	p.grant(ms(0), ms(200))
	p.grant(ms(500), ms(900))
	if got := p.left(ms(1000), 2*time.Second); got != ms(900) {
		t.Errorf("left at 1 s = %v, want 900ms (both grants within the window)", got)
	}
	if got := p.left(ms(1001), 2*time.Second); got != ms(1100) {
		t.Errorf("left at 1.001 s = %v, want 1.1s (the first grant has aged out)", got)
	}
	if got := p.left(ms(1001), ms(500)); got != 0 {
		t.Errorf("left with a limit below what was used = %v, want 0", got)
	}
}
