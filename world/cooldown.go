package world

import (
	"time"

	"tanknet/netcode"
)

// The shot cooldown is counted in two clocks, so that no choice of move durations and no
// saved-up time fires faster than Rules.Cooldown allows:
//
//   - Game time: the simulated time the shooter had been granted at the move its Fire
//     follows. Two accepted shots are at least Cooldown of it apart. An honest client sends
//     50 ms moves, so this is the cooldown in move ticks it predicts; a client sending 1 ms
//     moves gains nothing, as its game time advances 1 ms a move.
//   - Server time: a shot is judged at a server tick, and accepted shots keep to a schedule
//     of one per Cooldown of it, early by at most shotJitter (a generic cell rate
//     algorithm). Game time may be granted faster than real time after a stall (up to
//     Config.MaxSimPerSecond), and this clock stops that saved time becoming a burst.
//
// Together: at most one accepted shot per Cooldown on average, and any span S of server time
// holds at most 1 + (S + shotJitter) / Cooldown of them (3 in any second by default: a
// shot a retransmission delayed may be followed closely by the next, but no third).

// shotJitter is how much earlier than its schedule in server time a shot may be judged: a
// KCP retransmission can delay an honest Fire (and its move) by an RTO, 400 ms and more on
// a 3G link, leaving it closer to the next, on-time one. It stays under the default
// Cooldown, so no second of server time holds more than three accepted shots.
const shotJitter = 450 * time.Millisecond

// shotClock is when a player last fired, in both clocks.
type shotClock struct {
	fired   bool
	granted time.Duration // the shooter's game time at its last accepted shot
	due     uint32        // server tick the next shot is scheduled for
}

// allows reports whether a shot at game time granted, judged at server tick tick, keeps
// cooldown in both clocks.
func (c *shotClock) allows(granted time.Duration, tick uint32, cooldown time.Duration) bool {
	if !c.fired {
		return true
	}
	return granted-c.granted >= cooldown && uint64(tick)+uint64(netcode.Ticks(shotJitter)) >= uint64(c.due)
}

// fire records an accepted shot at game time granted, judged at server tick tick.
func (c *shotClock) fire(granted time.Duration, tick uint32, cooldown time.Duration) {
	if !c.fired || c.due < tick {
		c.due = tick
	}
	c.fired, c.granted = true, granted
	c.due += netcode.Ticks(cooldown)
}
