package sim

import (
	"math"
	"time"

	"tanknet/netcode"
	"tanknet/server"
)

// maxInputRecords bounds the applied inputs a run keeps for input_late_ticks: 14 h of one
// player, or 30 min of 30 players, at 20 Hz; later inputs are not recorded (a note says so).
const maxInputRecords = 1 << 20

// inputLog is what the server did with every player's MoveInputs: when it applied each one,
// and in which ticks a playing tank had none waiting. history fills it under its lock.
type inputLog struct {
	applied   []appliedInput
	truncated bool
	ticks     []tickInputs // one per tick, bounded like history's tick durations
	motion    map[uint32]motion
	perTick   map[uint32]int  // scratch: inputs applied per player this tick
	starved   map[uint32]bool // scratch: the players this tick starved
}

// motion is one player's last pose and tick-to-tick displacement, for motion_uneven_ratio.
type motion struct {
	pose netcode.Pose
	step float64 // distance moved in the tick before (world units)
	seen bool
}

// appliedInput says the server applied player's input for moveTick at server time now.
type appliedInput struct {
	player, moveTick uint32
	now              time.Duration
	wait             time.Duration // from its arrival at the server; < 0 unknown
}

// tickInputs is one tick of every player: how its inputs and its motion went.
type tickInputs struct {
	now     time.Duration
	players []playerTick
}

// playerTick is one player's tick: whether it starved, applied more than one input, moved
// (in this tick or the one before) and, moving, stepped unlike the tick before.
type playerTick struct {
	id                              uint32
	starved, double, moving, uneven bool
}

// keep picks the samples a figure covers: a server time (a run's measured window) and a
// player (a group's bots, or every bot).
type keep func(now time.Duration, player uint32) bool

// record adds one tick's applied inputs and starvation.
func (l *inputLog) record(rec server.TickRecord) {
	for _, a := range rec.Applied {
		if len(l.applied) >= maxInputRecords {
			l.truncated = true
			break
		}
		l.applied = append(l.applied, appliedInput{player: a.Player, moveTick: a.MoveTick, now: rec.Now, wait: a.Wait})
	}
	if len(l.ticks) >= maxTickDurations {
		return
	}
	t := tickInputs{now: rec.Now, players: make([]playerTick, len(rec.IDs))}
	if l.perTick == nil {
		l.perTick, l.motion = map[uint32]int{}, map[uint32]motion{}
	}
	clear(l.perTick)
	for _, a := range rec.Applied {
		l.perTick[a.Player]++
	}
	if l.starved == nil {
		l.starved = map[uint32]bool{}
	}
	clear(l.starved)
	for _, id := range rec.Starved {
		l.starved[id] = true
	}
	for i, id := range rec.IDs {
		p := &t.players[i]
		p.id, p.double, p.starved = id, l.perTick[id] > 1, l.starved[id]
		if i >= len(rec.Poses) {
			continue
		}
		m, pose := l.motion[id], rec.Poses[i]
		step := math.Hypot(pose.X-m.pose.X, pose.Y-m.pose.Y)
		if m.seen {
			p.moving, p.uneven = netcode.StepUneven(m.step, step) // the rule the demo's tick trail uses too
		}
		l.motion[id] = motion{pose: pose, step: step, seen: true}
	}
	l.ticks = append(l.ticks, t)
}

// waits returns how long each input applied that keep accepts waited at the server, in
// milliseconds.
func (l *inputLog) waits(in keep) []float64 {
	var out []float64
	for _, a := range l.applied {
		if a.wait >= 0 && in(a.now, a.player) {
			out = append(out, float64(a.wait)/float64(time.Millisecond))
		}
	}
	return out
}

// ratios returns, over the player-ticks keep accepts, the share that applied more than one
// input and, over the player-ticks of moving tanks, the share whose displacement was unlike
// the tick before's; nil for a ratio with nothing to count.
func (l *inputLog) ratios(in keep) (doubles, uneven *float64) {
	players, d, moving, u := 0, 0, 0, 0
	for _, t := range l.ticks {
		for _, p := range t.players {
			if in(t.now, p.id) {
				players, d, moving, u = players+1, d+btoi(p.double), moving+btoi(p.moving), u+btoi(p.uneven)
			}
		}
	}
	if players > 0 {
		doubles = ptr(float64(d) / float64(players))
	}
	if moving > 0 {
		uneven = ptr(float64(u) / float64(moving))
	}
	return doubles, uneven
}

// sentAt returns the server time at which player sent its input for moveTick, and false
// when that is unknown.
type sentAt func(player, moveTick uint32) (time.Duration, bool)

// lateTicks returns, for each input applied that keep accepts and whose send time sent
// knows, how many ticks after its due tick the server applied it. An input
// takes (applied - sent) to be applied; its due time is the smallest such time any input of
// the same player took over the run, the earliest its link ever delivered. Late is the
// excess in whole ticks, rounded down: 0 is as early as this player ever was. Measuring
// from the send time keeps a client's own stalls (steps it skipped) out of the number.
func (l *inputLog) lateTicks(in keep, sent sentAt) []float64 {
	best := map[uint32]time.Duration{}
	took := func(a appliedInput) (time.Duration, bool) {
		s, ok := sent(a.player, a.moveTick)
		return a.now - s, ok
	}
	for _, a := range l.applied {
		if d, ok := took(a); ok {
			if b, seen := best[a.player]; !seen || d < b {
				best[a.player] = d
			}
		}
	}
	var out []float64
	for _, a := range l.applied {
		if d, ok := took(a); ok && in(a.now, a.player) {
			out = append(out, math.Floor(float64(d-best[a.player])/float64(netcode.StepInterval)))
		}
	}
	return out
}

// starvedRatio returns the share of the player-ticks keep accepts in which the server had
// no input waiting for a playing tank; false when there are none.
func (l *inputLog) starvedRatio(in keep) (float64, bool) {
	players, starved := 0, 0
	for _, t := range l.ticks {
		for _, p := range t.players {
			if in(t.now, p.id) {
				players, starved = players+1, starved+btoi(p.starved)
			}
		}
	}
	if players == 0 {
		return 0, false
	}
	return float64(starved) / float64(players), true
}

// btoi counts a true as 1.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
