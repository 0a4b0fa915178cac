package view

import (
	"math"

	"tanknet/netcode"
)

// TrailLen is how many server ticks of the followed tank a TickTrail keeps: two seconds.
const TrailLen = 40

// trailBreak is a displacement in one tick no tank drives (it moves 0.25 units a tick at
// full speed): a respawn or a placement. The trail marks it and does not count it as motion.
const trailBreak = 1.0

// TrailPoint is one server tick of the followed tank in a TickTrail.
type TrailPoint struct {
	Tick uint32
	Pose netcode.Pose
	// Step is how far the tank moved from the tick before (world units), when Stepped: the
	// tick before is in the trail and the tank was not placed here.
	Step    float64
	Stepped bool
	// Uneven says this tick's displacement was unlike the tick before's (netcode.StepUneven);
	// Jump says the tank was placed here (a respawn), not driven.
	Uneven, Jump bool
}

// TickTrail follows one tank through the server's ticks: its newest positions, one a tick,
// which the tour's input-buffer scenes draw as dots (evenly spaced when the server applies
// one input a tick, bunched and gapped when it applies what has arrived), and the share of
// its moving ticks whose motion was uneven, counted as tanksim's motion_uneven_ratio is.
type TickTrail struct {
	id     uint32
	points []TrailPoint // oldest first, at most TrailLen
	step   float64      // the newest tick's displacement
	known  bool         // step is one tick's displacement (not the first tick, a gap or a jump)
	settle int          // ticks still to add before motion counts (Follow)
	// Moving and Uneven count the ticks since Follow: those in which the tank moved (that
	// tick or the one before) and, of them, those whose motion was uneven.
	Moving, Uneven int
}

// Follow starts the trail afresh on tank id; its first settle ticks are drawn but not
// counted (a switch just made, such as the input buffer's, takes a moment to settle).
func (t *TickTrail) Follow(id uint32, settle int) {
	*t = TickTrail{id: id, points: t.points[:0], settle: settle}
}

// ID returns the tank followed (0: none).
func (t *TickTrail) ID() uint32 { return t.id }

// Add records the followed tank at server tick tick; ticks not after the newest are
// ignored. A tick missing between two (the window did not see it) starts the motion count
// afresh rather than count two ticks' displacement as one.
func (t *TickTrail) Add(tick uint32, p netcode.Pose) {
	n := len(t.points)
	if n > 0 && tick <= t.points[n-1].Tick {
		return
	}
	pt := TrailPoint{Tick: tick, Pose: p}
	if n > 0 && tick == t.points[n-1].Tick+1 {
		prev := t.points[n-1].Pose
		step := math.Hypot(p.X-prev.X, p.Y-prev.Y)
		pt.Step, pt.Stepped = step, step <= trailBreak
		switch {
		case step > trailBreak:
			pt.Jump = true
		case t.known && t.settle > 0:
			t.settle--
		case t.known:
			moving, uneven := netcode.StepUneven(t.step, step)
			if moving {
				t.Moving++
			}
			if uneven {
				t.Uneven++
				pt.Uneven = true
			}
		}
		t.step, t.known = step, !pt.Jump
	} else {
		t.known = false
	}
	if n == TrailLen {
		t.points = t.points[:copy(t.points, t.points[1:])]
	}
	t.points = append(t.points, pt)
}

// Points returns the trail, oldest first. The slice is the trail's own.
func (t *TickTrail) Points() []TrailPoint { return t.points }

// Ratio returns Uneven / Moving, and false before a moving tick.
func (t *TickTrail) Ratio() (float64, bool) {
	if t.Moving == 0 {
		return 0, false
	}
	return float64(t.Uneven) / float64(t.Moving), true
}
