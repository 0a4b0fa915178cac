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
}

// appliedInput says the server applied player's input for moveTick at server time now.
type appliedInput struct {
	player, moveTick uint32
	now              time.Duration
}

// tickInputs is one tick's count of players and of starved players among them.
type tickInputs struct {
	now              time.Duration
	players, starved int
}

// record adds one tick's applied inputs and starvation.
func (l *inputLog) record(rec server.TickRecord) {
	for _, a := range rec.Applied {
		if len(l.applied) >= maxInputRecords {
			l.truncated = true
			break
		}
		l.applied = append(l.applied, appliedInput{player: a.Player, moveTick: a.MoveTick, now: rec.Now})
	}
	if len(l.ticks) < maxTickDurations {
		l.ticks = append(l.ticks, tickInputs{now: rec.Now, players: len(rec.IDs), starved: len(rec.Starved)})
	}
}

// sentAt returns the server time at which player sent its input for moveTick, and false
// when that is unknown.
type sentAt func(player, moveTick uint32) (time.Duration, bool)

// lateTicks returns, for each input applied at a server time inWindow accepts and whose
// send time sent knows, how many ticks after its due tick the server applied it. An input
// takes (applied - sent) to be applied; its due time is the smallest such time any input of
// the same player took over the run, the earliest its link ever delivered. Late is the
// excess in whole ticks, rounded down: 0 is as early as this player ever was. Measuring
// from the send time keeps a client's own stalls (steps it skipped) out of the number.
func (l *inputLog) lateTicks(inWindow func(now time.Duration) bool, sent sentAt) []float64 {
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
		if d, ok := took(a); ok && inWindow(a.now) {
			out = append(out, math.Floor(float64(d-best[a.player])/float64(netcode.StepInterval)))
		}
	}
	return out
}

// starvedRatio returns the share of player-ticks, in ticks inWindow accepts, in which the
// server had no input waiting for a playing tank; false when the window has no player-ticks.
func (l *inputLog) starvedRatio(inWindow func(now time.Duration) bool) (float64, bool) {
	players, starved := 0, 0
	for _, t := range l.ticks {
		if inWindow(t.now) {
			players += t.players
			starved += t.starved
		}
	}
	if players == 0 {
		return 0, false
	}
	return float64(starved) / float64(players), true
}
