package netcode

import (
	"testing"
	"time"
)

// Scenarios of specs/local-player-reconciliation.md, and the pruning scenario of
// specs/bounded-correction.md.

const frame = time.Second / 60

func TestReconcile_RebuildsFromLatestBaseline(t *testing.T) {
	a := openArena()
	in := Input{Turn: -0.5, Throttle: 0.8}
	l := newLocal(t, a, Pose{10, 10, 0})
	predictN(l, in, 5)
	s := State{Tick: 3, Pose: Pose{12, 11, 0.4}, Ack: 2}
	l.Reconcile(s)

	want := s.Pose
	for range 3 { // inputs 3, 4 and 5 are newer than N=2
		want = Step(a, want, in, StepInterval)
	}
	if got := l.Predicted(); got != want {
		t.Errorf("Reconcile(%+v): Predicted() = %v, want %v", s, got, want)
	}
	if got := l.Target(); got != want {
		t.Errorf("Reconcile(%+v): Target() = %v, want the rebuilt prediction %v", s, got, want)
	}
	if c := l.Counters(); c.Reconciliations != 1 || c.ReplayedSubsteps != 3 {
		t.Errorf("Counters() = %+v, want 1 reconciliation and 3 replayed substeps", c)
	}
}

func TestReconcile_RepeatedStatesRebuildWithoutConsuming(t *testing.T) {
	a := openArena()
	in := Input{Throttle: 1}
	l := newLocal(t, a, Pose{10, 10, 0})
	predictN(l, in, 6)
	tests := []struct {
		state State
		ticks []uint32
	}{
		{State{Tick: 1, Pose: Pose{10.1, 10, 0}, Ack: 2}, []uint32{3, 4, 5, 6}},
		{State{Tick: 2, Pose: Pose{10.3, 10.1, 0}, Ack: 3}, []uint32{4, 5, 6}},
	}
	for _, tt := range tests {
		l.Reconcile(tt.state)
		want := tt.state.Pose // from its own baseline, one 50 ms step per input still pending
		for range tt.ticks {
			want = Step(a, want, in, StepInterval)
		}
		if got := l.Predicted(); got != want {
			t.Errorf("Reconcile(%+v): Predicted() = %v, want %v", tt.state, got, want)
		}
		if got := ticks(l.Pending()); !equalTicks(got, tt.ticks) {
			t.Errorf("Reconcile(%+v): pending ticks = %v, want %v", tt.state, got, tt.ticks)
		}
	}
}

func TestReconcile_VisibleSmoothingKeepsPredictedTruth(t *testing.T) {
	a := openArena()
	l := newLocal(t, a, Pose{10, 10, 0})
	s := State{Tick: 1, Pose: Pose{10.5, 10, 0}}
	l.Reconcile(s)
	if l.Visible() == l.Predicted() {
		t.Fatalf("after Reconcile(%+v) Visible() = Predicted() = %v, want a correction still running", s, l.Visible())
	}
	if got := l.Predicted(); got != s.Pose {
		t.Fatalf("Predicted() = %v, want the rebuilt %v", got, s.Pose)
	}
	// Gameplay continues from the predicted pose, not from what is drawn.
	in := Input{Throttle: 1}
	want := Step(a, s.Pose, in, StepInterval)
	if got := l.Predict(in); got.Tick != 1 || l.Predicted() != want {
		t.Errorf("Predict(%+v) moved to %v (tick %d), want %v (tick 1)", in, l.Predicted(), got.Tick, want)
	}
}

func TestReconcile_SmallResidualSmoothsTowardTarget(t *testing.T) {
	l := newLocal(t, openArena(), Pose{10, 10, 0})
	s := State{Tick: 1, Pose: Pose{10.5, 10.2, 0.1}}
	l.Reconcile(s)
	if c := l.Counters(); c.Snaps != 0 || c.CorrectionsStarted != 1 {
		t.Fatalf("Counters() = %+v, want one correction and no snap", c)
	}
	if got := l.Visible(); !nearPose(got, Pose{10, 10, 0}, 1e-12) {
		t.Fatalf("Visible() right after Reconcile = %v, want the old visible pose (10, 10, 0)", got)
	}
	last := l.Visible().Distance(s.Pose)
	for i := 1; i <= 12; i++ { // 200 ms
		l.Advance(frame) // no Predict: the predicted pose stays put
		if got := l.Predicted(); got != s.Pose {
			t.Fatalf("frame %d: Predicted() = %v, want unchanged %v", i, got, s.Pose)
		}
		d := l.Visible().Distance(s.Pose)
		if d > last {
			t.Fatalf("frame %d: visible is %v from the target, was %v: not converging", i, d, last)
		}
		last = d
	}
	l.Advance(frame) // 12 frames of 1/60 s fall a few nanoseconds short of 200 ms
	if got := l.Visible(); got != s.Pose || l.Correcting() {
		t.Errorf("after the correction duration Visible() = %v (correcting %v), want %v", got, l.Correcting(), s.Pose)
	}
	if c := l.Counters(); c.CorrectionsConverged != 1 {
		t.Errorf("Counters().CorrectionsConverged = %d, want 1", c.CorrectionsConverged)
	}
}

// A small residual with inputs still pending: the replay of those inputs from the state,
// stepped here one by one, is both the new prediction and the presentation's target, on
// every frame of the smoothing toward it.
func TestReconcile_SmallResidualReplaysPendingIntoTarget(t *testing.T) {
	a := openArena()
	l := newLocal(t, a, Pose{10, 10, 0})
	inputs := []Input{{Throttle: 1}, {Throttle: 1, Turn: 0.5}, {Throttle: -0.5, Turn: -1}}
	for _, in := range inputs {
		l.Predict(in)
	}
	s := State{Tick: 1, Pose: Pose{10.25, 10.1, 0.05}, Ack: 1} // the first input applied, a little off
	l.Reconcile(s)
	want := s.Pose
	for _, in := range inputs[1:] {
		want = Step(a, want, in, StepInterval)
	}
	if c := l.Counters(); c.Snaps != 0 || c.CorrectionsStarted != 1 {
		t.Fatalf("Counters() = %+v, want one correction and no snap", c)
	}
	for i := range 13 { // past the 200 ms of the correction
		if l.Target() != want || l.Predicted() != want {
			t.Fatalf("frame %d: Target() %v, Predicted() %v; want both the replay %v", i, l.Target(), l.Predicted(), want)
		}
		l.Advance(frame) // no Predict: nothing new is pending
	}
	// Converged: what is drawn is the prediction's own (base: between its last two steps),
	// with no offset left.
	if l.Correcting() || l.Offset() != (Pose{}) || l.Visible() != l.base() {
		t.Errorf("after the correction: correcting %v, offset %v, Visible() %v; want no offset, the prediction's %v", l.Correcting(), l.Offset(), l.Visible(), l.base())
	}
}

func TestReconcile_LargeDivergenceSnaps(t *testing.T) {
	a := openArena()
	l := newLocal(t, a, Pose{10, 10, 0})
	predictN(l, Input{Throttle: 1}, 2)
	l.Reconcile(State{Tick: 1, Pose: Pose{10.3, 10, 0}, Ack: 0}) // a small one first
	s := State{Tick: 2, Pose: Pose{20, 15, 1}, Ack: 1}
	l.Reconcile(s)
	want := Step(a, s.Pose, Input{Throttle: 1}, StepInterval)
	if got := l.Visible(); got != want {
		t.Errorf("Reconcile(%+v): Visible() = %v, want snapped to %v", s, got, want)
	}
	if l.Correcting() || l.Offset() != (Pose{}) {
		t.Errorf("Reconcile(%+v): correction still active with offset %v", s, l.Offset())
	}
	if c := l.Counters(); c.Snaps != 1 || c.CorrectionsEscalated != 1 {
		t.Errorf("Counters() = %+v, want 1 snap that escalated the active correction", c)
	}
	// Later prediction continues from the rebuilt baseline.
	l.Predict(Input{Throttle: 1})
	if got, w := l.Predicted(), Step(a, want, Input{Throttle: 1}, StepInterval); got != w {
		t.Errorf("Predict after snap = %v, want %v", got, w)
	}
}

func TestReconcile_RejectsStaleAndDuplicate(t *testing.T) {
	l := newLocal(t, openArena(), Pose{10, 10, 0})
	predictN(l, Input{Throttle: 1}, 4)
	good := State{Tick: 5, Pose: Pose{10.2, 10, 0}, Ack: 1}
	if !l.Reconcile(good) {
		t.Fatalf("Reconcile(%+v) = false, want true", good)
	}
	before, pending, vis := l.Predicted(), len(l.Pending()), l.Visible()
	for _, s := range []State{
		{Tick: 5, Pose: Pose{1, 1, 0}, Ack: 4}, // duplicate
		{Tick: 3, Pose: Pose{2, 2, 0}, Ack: 4}, // stale
		{Tick: 0, Pose: Pose{3, 3, 0}, Ack: 9},
	} {
		if l.Reconcile(s) {
			t.Errorf("Reconcile(%+v) = true, want false (last accepted tick 5)", s)
		}
	}
	if l.Predicted() != before || len(l.Pending()) != pending || l.Visible() != vis || l.Baseline() != good {
		t.Errorf("stale states changed the local tank")
	}
	if got := l.Counters().StaleRejects; got != 3 {
		t.Errorf("Counters().StaleRejects = %d, want 3", got)
	}
}

func TestReconcile_PrunesOnlyAcknowledged(t *testing.T) {
	tests := []struct {
		name string
		ack  uint32
		want []uint32
	}{
		{"nothing acknowledged", 0, []uint32{1, 2, 3, 4, 5}},
		{"some", 2, []uint32{3, 4, 5}},
		{"all but newest", 4, []uint32{5}},
		{"all", 5, []uint32{}},
		{"beyond", 99, []uint32{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLocal(t, openArena(), Pose{10, 10, 0})
			predictN(l, Input{Throttle: 1}, 5)
			s := State{Tick: 1, Pose: Pose{10, 10, 0}, Ack: tt.ack}
			l.Reconcile(s)
			if got := ticks(l.Pending()); !equalTicks(got, tt.want) {
				t.Errorf("Reconcile(%+v): pending ticks = %v, want %v", s, got, tt.want)
			}
		})
	}
}

func TestReconcile_ResidualCounters(t *testing.T) {
	a := openArena()
	l := newLocal(t, a, Pose{10, 10, 0})
	in := Input{Throttle: 1}
	predictN(l, in, 4)
	exact := Simulate(a, Simulate(a, Pose{10, 10, 0}, in, StepInterval), in, StepInterval)
	l.Reconcile(State{Tick: 1, Pose: exact, Ack: 2}) // what the server computes: no residual
	if c := l.Counters(); c.LastResidual != 0 || c.NonZeroResiduals != 0 {
		t.Fatalf("exact state: Counters() = %+v, want zero residual", c)
	}
	pushed := Pose{exact.X - 0.3, exact.Y + 0.4, exact.Heading}
	l.Reconcile(State{Tick: 2, Pose: pushed, Ack: 2}) // contact pushed us 0.5
	c := l.Counters()
	if !near(c.LastResidual, 0.5, GridUnit) || !near(c.MaxResidual, 0.5, GridUnit) || c.NonZeroResiduals != 1 {
		t.Errorf("pushed state: Counters() = %+v, want residual 0.5 once", c)
	}
}
