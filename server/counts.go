package server

import "sync/atomic"

// counters are the live counts behind Stats, added to atomically by the rooms' games and
// the sessions, and read by snapshot. A count added here needs a field of Stats that
// snapshot copies it to, and a metric reading that field in server/metrics.
type counters struct {
	ticks, joins, leaves                                                  atomic.Uint64
	applied, staleInputs, clamped, deferred, contacts, badFrames, evicted atomic.Uint64
	pushes                                                                atomic.Uint64
	players                                                               atomic.Int64
	statesMoving, statesIdle, stateBytesMoving, stateBytesIdle            atomic.Uint64

	rejectsByCode, dropsByReason, inputsRefused, pushesRefused              tally
	tickDuration, tickCPU, tickHandoff                                      tickHistogram
	pingsIgnored                                                            atomic.Uint64
	aways, awayTicks                                                        atomic.Uint64
	shots, hits, kills, respawns, firesDropped                              atomic.Uint64
	shotsRefused                                                            tally // by netcode.ShotRefusal.Label
	earlyInputs, redundantInputs, gapInputs, badDatagrams, droppedDatagrams atomic.Uint64
}

// snapshot reads the live counts into a Stats; Server.Stats adds the figures kept elsewhere.
// Rejects and Drops are the totals of their splits as read, so the two agree.
func (c *counters) snapshot() Stats {
	st := Stats{
		Ticks:            c.ticks.Load(),
		Players:          int(c.players.Load()),
		Joins:            c.joins.Load(),
		Leaves:           c.leaves.Load(),
		InputsApplied:    c.applied.Load(),
		InputsStale:      c.staleInputs.Load(),
		InputsClamped:    c.clamped.Load(),
		InputsDeferred:   c.deferred.Load(),
		Contacts:         c.contacts.Load(),
		Pushes:           c.pushes.Load(),
		BadFrames:        c.badFrames.Load(),
		Evicted:          c.evicted.Load(),
		PingsIgnored:     c.pingsIgnored.Load(),
		Aways:            c.aways.Load(),
		AwayTicks:        c.awayTicks.Load(),
		RejectsByCode:    c.rejectsByCode.snapshot(),
		DropsByReason:    c.dropsByReason.snapshot(),
		InputsRefused:    c.inputsRefused.snapshot(),
		PushesRefused:    c.pushesRefused.snapshot(),
		TickDuration:     c.tickDuration.snapshot(),
		TickCPU:          c.tickCPU.snapshot(),
		TickHandoff:      c.tickHandoff.snapshot(),
		Shots:            c.shots.Load(),
		Hits:             c.hits.Load(),
		Kills:            c.kills.Load(),
		Respawns:         c.respawns.Load(),
		FiresDropped:     c.firesDropped.Load(),
		ShotsRefused:     c.shotsRefused.snapshot(),
		InputsEarly:      c.earlyInputs.Load(),
		InputsRedundant:  c.redundantInputs.Load(),
		InputsPastGap:    c.gapInputs.Load(),
		DatagramsBad:     c.badDatagrams.Load(),
		DatagramsDropped: c.droppedDatagrams.Load(),
		StatesMoving:     c.statesMoving.Load(),
		StatesIdle:       c.statesIdle.Load(),
		StateBytesMoving: c.stateBytesMoving.Load(),
		StateBytesIdle:   c.stateBytesIdle.Load(),
	}
	st.Rejects, st.Drops = total(st.RejectsByCode), total(st.DropsByReason)
	return st
}

// total adds up the counts of a split.
func total(split map[string]uint64) uint64 {
	var n uint64
	for _, v := range split {
		n += v
	}
	return n
}

// snapCost is what the tank entries of one snapshot cost, moving and idle tanks apart.
type snapCost struct{ moving, idle, movingBytes, idleBytes int }

func (c *snapCost) add(moved bool, bytes int) {
	if moved {
		c.moving, c.movingBytes = c.moving+1, c.movingBytes+bytes
	} else {
		c.idle, c.idleBytes = c.idle+1, c.idleBytes+bytes
	}
}

// times returns what n copies of the snapshot cost, as when one is sent to n clients.
func (c snapCost) times(n int) snapCost {
	return snapCost{moving: c.moving * n, idle: c.idle * n, movingBytes: c.movingBytes * n, idleBytes: c.idleBytes * n}
}

// sentCost counts the entries of one snapshot sent to one client.
func (c *counters) sentCost(s snapCost) {
	c.statesMoving.Add(uint64(s.moving))
	c.stateBytesMoving.Add(uint64(s.movingBytes))
	c.statesIdle.Add(uint64(s.idle))
	c.stateBytesIdle.Add(uint64(s.idleBytes))
}

// reject counts one refused handshake under its code.
func (c *counters) reject(label string) {
	c.rejectsByCode.add(label)
}

// drop counts one player the server removed, under the kind of its reason.
func (c *counters) drop(reason dropReason) {
	c.dropsByReason.add(dropLabel(reason.kind))
}
