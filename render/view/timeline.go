package view

import (
	"math"

	"tanknet/netcode"
)

// TimelineTicks is how much the timeline strip shows: the last second of server ticks (and
// of the local tank's move ticks, which run at the same 20 per second).
const TimelineTicks = 20

// Timeline strip rows, top to bottom.
const (
	RowSnapshots = iota // which server ticks' snapshots came
	RowRemote           // the selected remote tank's interpolation buffer and render cursor
	RowLocal            // the local tank's acknowledged and pending inputs
	TimelineRows
)

// Arrival says what came of one server tick's snapshot.
type Arrival int

const (
	ArrivalUnknown  Arrival = iota // before the first snapshot received: nothing to say
	ArrivalMissing                 // nothing of it came (yet): lost, or late
	ArrivalPartial                 // some of its chunks came
	ArrivalComplete                // all of it came
)

// TimelineState is what one client pane's strip shows, read from the client each frame.
type TimelineState struct {
	// NewestTick is the newest server tick received; the strip's server-tick rows end with
	// it. Arrivals says what came of each of the TimelineTicks ticks ending with it, oldest
	// first (shorter: the oldest are unknown).
	NewestTick uint32
	Arrivals   []Arrival

	// The selected remote tank (HasRemote false: none): the server ticks of its buffered
	// states, what its last frame drew, and the fractional ticks at which recent frames
	// held (had no pair of states to slide between).
	HasRemote bool
	Buffered  []uint32
	View      netcode.View
	Holds     []float64

	// The local tank (HasLocal false: not yet): its newest move tick, the newest the server
	// acknowledged, and the acknowledged move ticks at which recent reconciliations
	// corrected or snapped the drawn tank.
	HasLocal    bool
	MoveTick    uint32
	Acked       uint32
	Corrections []uint32
	Snaps       []uint32
	// Pushes are the move ticks of recent inputs that carried a contact push (contact
	// predicted): where this client pushed its own tank out of another.
	Pushes []uint32
}

// MarkKind is what a timeline mark stands for; the strip gives each its colour.
type MarkKind int

const (
	MarkReceived   MarkKind = iota // a snapshot came
	MarkPartial                    // part of a snapshot came
	MarkMissing                    // a snapshot did not come (yet)
	MarkBuffered                   // a state waiting in the interpolation buffer
	MarkBracket                    // the pair of states the remote tank is drawn between
	MarkCursor                     // where between them it is drawn
	MarkHeldCursor                 // it is held on one state: nothing to slide to
	MarkHold                       // a recent frame held here
	MarkAcked                      // an input the server has applied
	MarkPending                    // an input sent and not acknowledged yet
	MarkCorrection                 // a reconciliation here started or folded a correction
	MarkSnap                       // a reconciliation here snapped the drawn tank
	MarkPush                       // the input of this move tick pushed our tank out of another
)

// Mark is one mark on the strip: row, and horizontal extent as fractions of the strip's
// width (0 the left edge, 1 the right; X0 == X1 for a line).
type Mark struct {
	Row    int
	X0, X1 float64
	Kind   MarkKind
}

// slotInset is the gap left on each side of a tick's slot, as a fraction of the slot.
const slotInset = 0.12

// TimelineMarks lays out s as marks, appended to dst[:0]. Each tick of the last second owns
// a slot of 1/TimelineTicks of the width, the newest at the right; a fractional tick (the
// render cursor, a hold) sits at the matching point between slot centres. Marks for ticks
// outside the last second are left out.
func TimelineMarks(s TimelineState, dst []Mark) []Mark {
	dst = dst[:0]
	if s.NewestTick > 0 {
		m := marker{first: firstShown(s.NewestTick), dst: dst}
		m.snapshots(s)
		if s.HasRemote {
			m.remote(s)
		}
		dst = m.dst
	}
	if s.HasLocal && s.MoveTick > 0 {
		m := marker{first: firstShown(s.MoveTick), dst: dst}
		m.local(s)
		dst = m.dst
	}
	return dst
}

// firstShown is the oldest tick of the last second when newest is the newest.
func firstShown(newest uint32) uint32 {
	if newest < TimelineTicks-1 {
		return 0
	}
	return newest - (TimelineTicks - 1)
}

// marker appends the marks of rows whose last second starts at tick first.
type marker struct {
	first uint32
	dst   []Mark
}

// slot marks tick's whole slot, if it is in the last second.
func (m *marker) slot(row int, tick uint32, kind MarkKind) {
	if tick < m.first || tick >= m.first+TimelineTicks {
		return
	}
	i := float64(tick - m.first)
	m.dst = append(m.dst, Mark{Row: row, X0: (i + slotInset) / TimelineTicks, X1: (i + 1 - slotInset) / TimelineTicks, Kind: kind})
}

// at is where a fractional tick sits, and whether that is on the strip.
func (m *marker) at(tick float64) (float64, bool) {
	x := (tick - float64(m.first) + 0.5) / TimelineTicks
	return x, x >= 0 && x <= 1
}

// line marks a fractional tick with a line, if it is on the strip.
func (m *marker) line(row int, tick float64, kind MarkKind) {
	if x, ok := m.at(tick); ok {
		m.dst = append(m.dst, Mark{Row: row, X0: x, X1: x, Kind: kind})
	}
}

// snapshots marks how each snapshot of the last second arrived.
func (m *marker) snapshots(s TimelineState) {
	off := TimelineTicks - len(s.Arrivals) // Arrivals ends with the newest tick
	for i, a := range s.Arrivals {
		tick := m.first + uint32(off+i)
		switch a {
		case ArrivalComplete:
			m.slot(RowSnapshots, tick, MarkReceived)
		case ArrivalPartial:
			m.slot(RowSnapshots, tick, MarkPartial)
		case ArrivalMissing:
			m.slot(RowSnapshots, tick, MarkMissing)
		}
	}
}

// remote marks the remote tank's buffered states, the pair it is drawn between, where
// between them, and the recent holds.
func (m *marker) remote(s TimelineState) {
	for _, t := range s.Buffered {
		m.slot(RowRemote, t, MarkBuffered)
	}
	v := s.View
	if x0, ok0 := m.at(float64(v.From)); ok0 && !v.Held() {
		x1, _ := m.at(float64(v.To))
		m.dst = append(m.dst, Mark{Row: RowRemote, X0: x0, X1: math.Min(1, x1), Kind: MarkBracket})
	}
	if v != (netcode.View{}) {
		kind := MarkCursor
		if v.Held() {
			kind = MarkHeldCursor
		}
		m.line(RowRemote, v.Tick(), kind)
	}
	for _, h := range s.Holds {
		m.line(RowRemote, h, MarkHold)
	}
}

// local marks the own tank's inputs, acknowledged or pending, and the corrections, snaps
// and pushes among them.
func (m *marker) local(s TimelineState) {
	for t := m.first; t <= s.MoveTick; t++ {
		if t == 0 {
			continue // move ticks start at 1
		}
		kind := MarkPending
		if t <= s.Acked {
			kind = MarkAcked
		}
		m.slot(RowLocal, t, kind)
	}
	for _, t := range s.Corrections {
		m.line(RowLocal, float64(t), MarkCorrection)
	}
	for _, t := range s.Snaps {
		m.line(RowLocal, float64(t), MarkSnap)
	}
	for _, t := range s.Pushes {
		m.line(RowLocal, float64(t), MarkPush)
	}
}
