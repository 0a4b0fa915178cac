package world

import "time"

// paceWindow is the span over which Config.MaxSimPerSecond bounds a player's simulated
// time: the movement rule is stated per second of server time.
const paceWindow = time.Second

// simGrant is the simulated time a player was given in one tick.
type simGrant struct {
	at time.Duration // server time of the tick
	d  time.Duration
}

// pace remembers a player's recent grants, so that the simulated time given over any
// paceWindow of server time stays within a limit whatever the client sends or saved up.
type pace struct {
	recent []simGrant // grants within paceWindow of the newest, oldest first
}

// left returns how much more simulated time may be granted at now without the grants in
// [now - paceWindow, now] exceeding limit.
func (p *pace) left(now, limit time.Duration) time.Duration {
	i := 0
	for i < len(p.recent) && p.recent[i].at < now-paceWindow {
		i++
	}
	p.recent = p.recent[:copy(p.recent, p.recent[i:])]
	used := time.Duration(0)
	for _, g := range p.recent {
		used += g.d
	}
	return max(limit-used, 0)
}

// grant records d given at now.
func (p *pace) grant(now, d time.Duration) {
	if d > 0 {
		p.recent = append(p.recent, simGrant{now, d})
	}
}
