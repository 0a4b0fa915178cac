package netcode

import (
	"math"
	"testing"
	"time"
)

// Scenarios of specs/local-player-simulation-state.md.

func TestSimState_BaselineUpdatesOnPlayerState(t *testing.T) {
	l := newLocal(t, openArena(), Pose{10, 10, 0})
	predictN(l, Input{Throttle: 1}, 4)
	s := State{Tick: 7, Pose: Pose{10.5, 10, 0.1}, Ack: 2}
	if !l.Reconcile(s) {
		t.Fatalf("Reconcile(%+v) = false, want true", s)
	}
	if got := l.Baseline(); got != s {
		t.Errorf("Baseline() = %+v, want %+v", got, s)
	}
}

func TestSimState_PrunesAcknowledgedInputs(t *testing.T) {
	l := newLocal(t, openArena(), Pose{10, 10, 0})
	predictN(l, Input{Throttle: 1}, 6)
	l.Reconcile(State{Tick: 1, Pose: Pose{10.75, 10, 0}, Ack: 3})
	if got, want := ticks(l.Pending()), []uint32{4, 5, 6}; !equalTicks(got, want) {
		t.Errorf("pending ticks = %v, want %v", got, want)
	}
	if got := l.Counters().Pruned; got != 3 {
		t.Errorf("Counters().Pruned = %d, want 3", got)
	}
}

func TestSimState_PresentationTargetComputedAfterReplay(t *testing.T) {
	a := openArena()
	l := newLocal(t, a, Pose{10, 10, 0})
	predictN(l, Input{Turn: 1, Throttle: 1}, 6)
	s := State{Tick: 1, Pose: Pose{11, 9, -0.5}, Ack: 2} // somewhere else: contact moved us
	l.Reconcile(s)
	want := s.Pose
	for range 4 { // ticks 3..6, in 50 ms substeps
		want = Step(a, want, Input{Turn: 1, Throttle: 1}, 50*time.Millisecond)
	}
	if got := l.Target(); got != want {
		t.Errorf("Target() = %v, want baseline + replay %v", got, want)
	}
	if got := l.Predicted(); got != want {
		t.Errorf("Predicted() = %v, want %v", got, want)
	}
}

func TestSimState_PresentationTargetStableBetweenStates(t *testing.T) {
	a := openArena()
	l := newLocal(t, a, Pose{10, 10, 0})
	predictN(l, Input{Throttle: 1}, 3)
	l.Reconcile(State{Tick: 1, Pose: Pose{10.2, 10.1, 0}, Ack: 1})
	target := l.Target()
	if !l.Correcting() {
		t.Fatal("the small residual started no correction")
	}
	moved := false
	left := math.Hypot(l.Offset().X, l.Offset().Y)
	for i := range 30 { // half a second of frames with no new state
		for range l.Advance(time.Second / 60) {
			l.Predict(Input{Turn: 0.3, Throttle: 1})
		}
		if got := l.Target(); got != target {
			t.Fatalf("Target() = %v between states, want unchanged %v", got, target)
		}
		moved = moved || l.Predicted() != target
		// The presentation keeps closing on the prediction: the correction's offset only
		// shrinks.
		if d := math.Hypot(l.Offset().X, l.Offset().Y); d > left {
			t.Fatalf("frame %d: the visible pose is %v from the prediction, was %v: not converging", i+1, d, left)
		} else {
			left = d
		}
	}
	if !moved {
		t.Error("Predicted() never left the target: prediction did not run")
	}
	if l.Correcting() || l.Offset() != (Pose{}) || l.Visible() != l.base() {
		t.Errorf("after half a second: correcting %v, offset %v, Visible() %v; want the visible pose the prediction's own %v", l.Correcting(), l.Offset(), l.Visible(), l.base())
	}
}
