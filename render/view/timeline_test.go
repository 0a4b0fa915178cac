package view

import (
	"math"
	"testing"

	"tanknet/netcode"
)

// marksOf returns the marks of kind in row.
func marksOf(ms []Mark, row int, kind MarkKind) []Mark {
	var out []Mark
	for _, m := range ms {
		if m.Row == row && m.Kind == kind {
			out = append(out, m)
		}
	}
	return out
}

// slotOf returns the tick slot (0 oldest .. TimelineTicks-1 newest) a slot mark covers.
func slotOf(m Mark) int { return int(math.Floor(m.X0 * TimelineTicks)) }

func TestTimelineSnapshotsReceivedAndMissing(t *testing.T) {
	arr := make([]Arrival, TimelineTicks)
	for i := range arr {
		arr[i] = ArrivalComplete
	}
	arr[5], arr[6], arr[12] = ArrivalMissing, ArrivalMissing, ArrivalPartial
	ms := TimelineMarks(TimelineState{NewestTick: 500, Arrivals: arr}, nil)

	if got := len(marksOf(ms, RowSnapshots, MarkReceived)); got != TimelineTicks-3 {
		t.Errorf("%d received marks, want %d", got, TimelineTicks-3)
	}
	missing := marksOf(ms, RowSnapshots, MarkMissing)
	if len(missing) != 2 || slotOf(missing[0]) != 5 || slotOf(missing[1]) != 6 {
		t.Errorf("missing marks %v, want slots 5 and 6", missing)
	}
	if p := marksOf(ms, RowSnapshots, MarkPartial); len(p) != 1 || slotOf(p[0]) != 12 {
		t.Errorf("partial marks %v, want slot 12", p)
	}
	for _, m := range ms {
		if m.X0 < 0 || m.X1 > 1 || m.X0 > m.X1 {
			t.Errorf("mark %+v outside the strip", m)
		}
	}
	// The newest tick is the rightmost slot.
	last := marksOf(ms, RowSnapshots, MarkReceived)
	if got := slotOf(last[len(last)-1]); got != TimelineTicks-1 {
		t.Errorf("newest tick in slot %d, want %d", got, TimelineTicks-1)
	}
}

func TestTimelineShortHistoryIsUnknownNotMissing(t *testing.T) {
	// Three snapshots since joining: the 17 older slots say nothing.
	ms := TimelineMarks(TimelineState{NewestTick: 40, Arrivals: []Arrival{ArrivalComplete, ArrivalMissing, ArrivalComplete}}, nil)
	if got := len(ms); got != 3 {
		t.Fatalf("%d marks, want 3: %v", got, ms)
	}
	if m := marksOf(ms, RowSnapshots, MarkMissing); len(m) != 1 || slotOf(m[0]) != TimelineTicks-2 {
		t.Errorf("missing %v, want the slot before the newest", m)
	}
}

func TestTimelineRemoteCursorInsideItsBracket(t *testing.T) {
	s := TimelineState{
		NewestTick: 100, HasRemote: true,
		Buffered: []uint32{97, 98, 99, 100},
		View:     netcode.View{From: 97, To: 98, Fraction: 0.25},
		Holds:    []float64{92, 60}, // 60 is older than the last second: left out
	}
	ms := TimelineMarks(s, nil)
	if got := len(marksOf(ms, RowRemote, MarkBuffered)); got != 4 {
		t.Errorf("%d buffered marks, want 4", got)
	}
	br, cur := marksOf(ms, RowRemote, MarkBracket), marksOf(ms, RowRemote, MarkCursor)
	if len(br) != 1 || len(cur) != 1 {
		t.Fatalf("bracket %v cursor %v, want one each", br, cur)
	}
	if c := cur[0].X0; c <= br[0].X0 || c >= br[0].X1 {
		t.Errorf("cursor at %v outside its bracket [%v, %v]", c, br[0].X0, br[0].X1)
	}
	// A quarter of the way from tick 97's centre to 98's.
	if want := (97.25 - 81 + 0.5) / TimelineTicks; math.Abs(cur[0].X0-want) > 1e-12 {
		t.Errorf("cursor at %v, want %v", cur[0].X0, want)
	}
	if h := marksOf(ms, RowRemote, MarkHold); len(h) != 1 {
		t.Errorf("hold marks %v, want only the one in the last second", h)
	}

	s.View = netcode.View{From: 100, To: 100}
	ms = TimelineMarks(s, ms)
	if len(marksOf(ms, RowRemote, MarkBracket)) != 0 || len(marksOf(ms, RowRemote, MarkHeldCursor)) != 1 {
		t.Errorf("held view: marks %v, want a held cursor and no bracket", ms)
	}
}

func TestTimelineLocalAckedPendingAndCorrections(t *testing.T) {
	s := TimelineState{HasLocal: true, MoveTick: 300, Acked: 295, Corrections: []uint32{295, 200}, Snaps: []uint32{290},
		Pushes: []uint32{250, 297, 298}}
	ms := TimelineMarks(s, nil)
	acked, pending := marksOf(ms, RowLocal, MarkAcked), marksOf(ms, RowLocal, MarkPending)
	if len(pending) != 5 || len(acked) != TimelineTicks-5 {
		t.Errorf("%d acked, %d pending marks; want %d and 5", len(acked), len(pending), TimelineTicks-5)
	}
	for _, p := range pending {
		for _, a := range acked {
			if p.X0 < a.X1 {
				t.Errorf("pending %v left of acked %v: pending inputs are the newest", p, a)
			}
		}
	}
	if c := marksOf(ms, RowLocal, MarkCorrection); len(c) != 1 {
		t.Errorf("corrections %v, want only tick 295's", c)
	}
	if sn := marksOf(ms, RowLocal, MarkSnap); len(sn) != 1 {
		t.Errorf("snaps %v, want tick 290's", sn)
	}
	if p := marksOf(ms, RowLocal, MarkPush); len(p) != 2 || p[0].X0 >= p[1].X0 {
		t.Errorf("pushes %v, want ticks 297's and 298's, in order (250 is over a second old)", p)
	}
	if got := TimelineMarks(TimelineState{}, ms); len(got) != 0 {
		t.Errorf("empty state gave marks %v", got)
	}
}
