package view

import (
	"fmt"
	"time"

	"tanknet/linksim"
)

// CyclePreset returns the preset step places after current in names (step -1: before it),
// wrapping around. A current not in names (custom conditions) counts as just before the
// first, so stepping forward from it gives names[0] and backward the last.
func CyclePreset(names []string, current string, step int) string {
	if len(names) == 0 {
		return current
	}
	i := -1
	for j, n := range names {
		if n == current {
			i = j
		}
	}
	if i < 0 {
		if step >= 0 {
			return names[0]
		}
		return names[len(names)-1]
	}
	n := len(names)
	return names[((i+step)%n+n)%n]
}

// BriefConditions says in a few characters what link conditions add, for a narrow title:
// the one-way latency and jitter and the loss, each way when both ways are alike
// ("50±50ms 4% loss"), else the round trip they add ("rtt +240ms 5% loss" with the larger
// loss); "nothing added" for a perfect link.
func BriefConditions(c linksim.Conditions) string {
	if c == (linksim.Conditions{}) {
		return "nothing added"
	}
	ms := func(d time.Duration) string { return fmt.Sprintf("%d", d.Milliseconds()) }
	var s string
	loss := max(c.Outbound.Loss, c.Inbound.Loss)
	if c.Outbound == c.Inbound {
		s = ms(c.Outbound.Latency)
		if c.Outbound.Jitter > 0 {
			s += "±" + ms(c.Outbound.Jitter)
		}
		s += "ms"
	} else {
		s = "rtt +" + ms(c.AddedRTT()) + "ms"
	}
	if loss > 0 {
		s += fmt.Sprintf(" %g%% loss", loss*100)
	}
	return s
}
