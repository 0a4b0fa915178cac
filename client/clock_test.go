package client

import (
	"testing"
	"time"
)

// TestClock_LinkStampsArrivalsInGameTime: at a quarter speed, a message that arrived four
// wall seconds after the change arrived one game second after it, and a Game on the clock
// counts it so.
func TestClock_LinkStampsArrivalsInGameTime(t *testing.T) {
	t0 := time.Unix(100, 0)
	c := NewClock(t0)
	c.SetRate(t0, 0.25)
	inner := &scriptLink{}
	inner.queue = append(inner.queue, Received{At: t0.Add(4 * time.Second)})
	l := c.Link(inner)
	got, err := l.Drain(nil)
	if err != nil || len(got) != 1 {
		t.Fatalf("Drain = %v, %v; want the one message", got, err)
	}
	if at := got[0].At.Sub(t0); at != time.Second {
		t.Errorf("arrival at %v of game time, want 1s", at)
	}
	if c.Rate() != 0.25 || l.SmoothedRTT() != 0 {
		t.Errorf("rate %v, smoothed RTT %v; want 0.25 and the inner link's 0", c.Rate(), l.SmoothedRTT())
	}
}
