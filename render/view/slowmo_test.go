package view

import (
	"testing"
	"time"

	"tanknet/linksim"
)

func TestSlowMotion(t *testing.T) {
	if got := []int{NextSlow(1, 1), NextSlow(4, 1), NextSlow(8, 1), NextSlow(1, -1), NextSlow(3, 1)}; got[0] != 4 || got[1] != 8 || got[2] != 1 || got[3] != 8 || got[4] != 1 {
		t.Errorf("stepping the slow motion factors: %v, want [4 8 1 8 1]", got)
	}
	c, err := linksim.Preset("wifi-bad")
	if err != nil {
		t.Fatal(err)
	}
	s := SlowConditions(c, 4)
	if s.Outbound.Latency != 4*c.Outbound.Latency || s.Inbound.Jitter != 4*c.Inbound.Jitter || s.Outbound.Loss != c.Outbound.Loss {
		t.Errorf("wifi-bad at a quarter: %v, want four times the delays and the same chances as %v", s, c)
	}
	if SlowConditions(c, 1) != c || SlowLabel(1) != "" || SlowLabel(8) != "SLOW MOTION 1/8" {
		t.Error("real time changes the link or has a label")
	}
	huge := linksim.Conditions{Outbound: linksim.Link{Latency: linksim.MaxLatency - time.Millisecond}}
	if got := SlowConditions(huge, 8).Outbound.Latency; got != linksim.MaxLatency {
		t.Errorf("a slowed latency past the conditioner's bound: %v, want it held at %v", got, linksim.MaxLatency)
	}
}
