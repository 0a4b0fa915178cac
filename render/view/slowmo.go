package view

import (
	"fmt"
	"time"

	"tanknet/linksim"
)

// SlowFactors are the speeds the demo's slow motion steps through (key M), as how many
// times slower than real time: 1 is real time, 4 a quarter, 8 an eighth.
var SlowFactors = []int{1, 4, 8}

// NextSlow returns the factor after cur in SlowFactors (step -1: before it), wrapping
// around; a cur not among them gives real time.
func NextSlow(cur, step int) int {
	for i, f := range SlowFactors {
		if f == cur {
			n := len(SlowFactors)
			return SlowFactors[((i+step)%n+n)%n]
		}
	}
	return 1
}

// SlowConditions returns link conditions c as they play when the whole match runs factor
// times slower: every delay factor times as long on the wall clock, so each takes the same
// game time; loss, duplication and reordering are chances and stay as they are.
func SlowConditions(c linksim.Conditions, factor int) linksim.Conditions {
	if factor <= 1 {
		return c
	}
	slow := func(l linksim.Link) linksim.Link {
		l.Latency = min(l.Latency*time.Duration(factor), linksim.MaxLatency)
		l.Jitter = min(l.Jitter*time.Duration(factor), linksim.MaxLatency)
		return l
	}
	return linksim.Conditions{Outbound: slow(c.Outbound), Inbound: slow(c.Inbound)}
}

// SlowLabel names a slow motion factor for a title or banner ("" at real time).
func SlowLabel(factor int) string {
	if factor <= 1 {
		return ""
	}
	return fmt.Sprintf("SLOW MOTION 1/%d", factor)
}
