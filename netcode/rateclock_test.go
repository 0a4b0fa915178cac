package netcode

import (
	"testing"
	"time"
)

// TestRateClock: game time runs at the rate, stays continuous when it changes, and counts a
// wall time older than the change at the rate before it.
func TestRateClock(t *testing.T) {
	t0 := time.Unix(1000, 0)
	c := NewRateClock(t0)
	if got := c.At(t0.Add(time.Second)); !got.Equal(t0.Add(time.Second)) {
		t.Fatalf("rate 1: a wall second later is %v, want %v", got, t0.Add(time.Second))
	}
	c.SetRate(t0.Add(time.Second), 0.25)
	for _, tt := range []struct {
		wall, want time.Duration
	}{
		{time.Second, time.Second},
		{5 * time.Second, 2 * time.Second}, // four wall seconds at a quarter
		{900 * time.Millisecond, 900 * time.Millisecond},
	} {
		if got := c.At(t0.Add(tt.wall)).Sub(t0); got != tt.want {
			t.Errorf("at wall %v: game %v, want %v", tt.wall, got, tt.want)
		}
	}
	if got := c.Wall(50 * time.Millisecond); got != 200*time.Millisecond {
		t.Errorf("a 50 ms tick at a quarter lasts %v of wall time, want 200ms", got)
	}
	c.SetRate(t0.Add(5*time.Second), 1)
	if got := c.At(t0.Add(6 * time.Second)).Sub(t0); got != 3*time.Second {
		t.Errorf("back at rate 1: game %v, want 3s", got)
	}
	c.SetRate(t0, 0) // refused
	if c.Rate() != 1 {
		t.Errorf("rate %v after a zero rate was refused, want 1", c.Rate())
	}
}
