package sim

import (
	"time"

	"tanknet/netcode"
	"tanknet/server"
)

// maxOverlapSamples bounds the overlap samples a run keeps: an hour of 16 tanks touching in
// pairs every tick.
const maxOverlapSamples = 1 << 20

// overlapSample is one pair of tanks that overlapped at the end of one server tick: when the
// tick was observed, and how deep, in world units.
type overlapSample struct {
	at    time.Time
	depth float64
}

// contactLog is what the in-process server's ticks showed of tank contact: every pair of
// tanks that overlapped after a tick, and the pushes it applied. The history fills it
// (record) under its lock.
type contactLog struct {
	arena    netcode.Arena
	overlaps []overlapSample
	// pushMax is the longest push applied, world units.
	pushMax float64
	// The world's counts: pushes applied and refused, pairs the server pushed apart.
	pushes, refused, contacts uint64
}

// record notes the overlaps of rec's tanks (observed at at) and the pushes it applied.
func (c *contactLog) record(rec server.TickRecord, at time.Time) {
	a := &c.arena
	reach := 2 * a.TankRadius
	poses := rec.Poses
	for i, p := range poses {
		for _, q := range poses[i+1:] {
			if q.X-p.X >= reach || p.X-q.X >= reach || q.Y-p.Y >= reach || p.Y-q.Y >= reach {
				continue
			}
			if d := netcode.Overlap(a, p, q); d > 0 && len(c.overlaps) < maxOverlapSamples {
				c.overlaps = append(c.overlaps, overlapSample{at, d})
			}
		}
	}
	for _, in := range rec.Applied {
		if !in.Push.IsZero() {
			c.pushMax = max(c.pushMax, in.Push.Length())
		}
	}
	c.pushes += rec.Counts.Pushes
	c.contacts += rec.Counts.Contacts
	for _, n := range rec.Counts.PushesRefused {
		c.refused += n
	}
}

// ContactFigures is what tanksim measured of tank contact against the in-process server's
// own ticks, over the measured window (null against an external server).
type ContactFigures struct {
	// OverlapTicks counts (tick, pair of tanks) that overlapped at the end of a tick.
	OverlapTicks int `json:"overlap_ticks"`
	// OverlapP99 and OverlapMax are how deep those pairs overlapped, in tank radii (2 means
	// one tank's centre on the other's): the 99th percentile and the worst.
	OverlapP99 float64 `json:"overlap_p99_radii"`
	OverlapMax float64 `json:"overlap_max_radii"`
	// Pushes and PushesRefused are the clients' contact pushes the server applied, and
	// refused, over the whole run (server counters).
	Pushes        uint64 `json:"pushes"`
	PushesRefused uint64 `json:"pushes_refused"`
	// PushMaxRadii is the longest push applied in one input, in tank radii; the rules allow
	// a step of top speed (netcode.MaxPush).
	PushMaxRadii float64 `json:"push_max_radii"`
	// Contacts is how many tank pairs the server pushed apart itself (contact "server").
	Contacts uint64 `json:"contacts"`
}

// contactFigures summarises the contact log over the window [from, to] of wall times.
func (h *history) contactFigures(from, to time.Time) *ContactFigures {
	h.mu.Lock()
	defer h.mu.Unlock()
	c := &h.contact
	r := c.arena.TankRadius
	var depths []float64
	for _, s := range c.overlaps {
		if !s.at.Before(from) && !s.at.After(to) {
			depths = append(depths, s.depth/r)
		}
	}
	f := &ContactFigures{OverlapTicks: len(depths), Pushes: c.pushes, PushesRefused: c.refused,
		PushMaxRadii: c.pushMax / r, Contacts: c.contacts}
	if len(depths) > 0 {
		f.OverlapP99, f.OverlapMax = percentile(depths, 0.99), maxOf(depths)
	}
	return f
}
