package netcode

import (
	"testing"
	"time"
)

func TestClock(t *testing.T) {
	// One clock, fed a sequence of synthetic frame times.
	c := NewClock(StepInterval, 3)
	ms := time.Millisecond
	steps := []struct {
		name      string
		frame     time.Duration
		wantSteps int
		wantAlpha float64
		dropped   int
	}{
		{"short frame", 20 * ms, 0, 0.4, 0},
		{"crosses a step", 40 * ms, 1, 0.2, 0},
		{"exactly one step", 50 * ms, 1, 0.2, 0},
		{"negative frame", -30 * ms, 0, 0.2, 0},
		{"two steps", 100 * ms, 2, 0.2, 0},
		{"stall is capped", 1000 * ms, 3, 0.2, 17},
		{"back to normal", 40 * ms, 1, 0, 17},
	}
	for _, st := range steps {
		if got := c.Advance(st.frame); got != st.wantSteps {
			t.Errorf("%s: Advance(%v) = %d, want %d", st.name, st.frame, got, st.wantSteps)
		}
		if got := c.Alpha(); !near(got, st.wantAlpha, 1e-12) {
			t.Errorf("%s: Alpha() = %v, want %v", st.name, got, st.wantAlpha)
		}
		if got := c.Dropped(); got != st.dropped {
			t.Errorf("%s: Dropped() = %d, want %d", st.name, got, st.dropped)
		}
	}
}

func TestClockSixtyFPS(t *testing.T) {
	// 60 frames of 1/60 s make 20 steps of 50 ms, three frames per step.
	c := NewClock(0, 0) // defaults: StepInterval, cap 1
	total := 0
	var now time.Duration
	for i := 1; i <= 60; i++ {
		next := time.Duration(i) * time.Second / 60
		n := c.Advance(next - now)
		now = next
		total += n
		if a := c.Alpha(); a < 0 || a >= 1 {
			t.Fatalf("frame %d: Alpha() = %v, want in [0, 1)", i, a)
		}
	}
	if total != 20 {
		t.Errorf("one second at 60 FPS ran %d steps, want 20", total)
	}
}
