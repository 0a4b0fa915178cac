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
	inner := &measuredLink{rtt: 80 * time.Millisecond}
	inner.queue = append(inner.queue, Received{At: t0.Add(4 * time.Second)})
	l := c.Link(inner)
	got, err := l.Drain(nil)
	if err != nil || len(got) != 1 {
		t.Fatalf("Drain = %v, %v; want the one message", got, err)
	}
	if at := got[0].At.Sub(t0); at != time.Second {
		t.Errorf("arrival at %v of game time, want 1s", at)
	}
	rtt := l.(transportStats).SmoothedRTT()
	if c.Rate() != 0.25 || rtt != 20*time.Millisecond {
		t.Errorf("rate %v, smoothed RTT %v; want 0.25 and the inner link's 80 ms in game time, 20 ms", c.Rate(), rtt)
	}
	if bad, dropped := l.(transportStats).DatagramStats(); bad != 3 || dropped != 4 {
		t.Errorf("DatagramStats = %d, %d; want the inner link's 3, 4", bad, dropped)
	}
	if rtt := c.Link(&scriptLink{}).(transportStats).SmoothedRTT(); rtt != 0 {
		t.Errorf("smoothed RTT over a link without a transport = %v, want 0", rtt)
	}
}

// measuredLink is a scripted link with a transport's figures.
type measuredLink struct {
	scriptLink
	rtt time.Duration
}

func (l *measuredLink) SmoothedRTT() time.Duration           { return l.rtt }
func (l *measuredLink) DatagramStats() (bad, dropped uint64) { return 3, 4 }
