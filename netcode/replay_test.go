package netcode

import (
	"testing"
	"time"
)

// Scenarios of specs/client-prediction-replay.md.

func newLocal(t testing.TB, a *Arena, start Pose) *Local {
	t.Helper()
	return NewLocal(a, DefaultLocalConfig(), State{Pose: start})
}

// predictN runs n live prediction steps with in and returns the predicted pose.
func predictN(l *Local, in Input, n int) Pose {
	for range n {
		l.Predict(in)
	}
	return l.Predicted()
}

func TestReplay_SteadyInputMatchesLive(t *testing.T) {
	a := openArena()
	start := Pose{10, 10, 0}
	in := Input{Turn: 0, Throttle: 1}
	step := PendingInput{Tick: 1, Input: in, Duration: 150 * time.Millisecond}

	if got := Substeps(step.Duration); got != 3 {
		t.Fatalf("Substeps(%v) = %d, want 3 (0.05 + 0.05 + 0.05)", step.Duration, got)
	}
	explicit := Step(a, Step(a, Step(a, start, in, StepInterval), in, StepInterval), in, StepInterval)
	live := predictN(newLocal(t, a, start), in, 3)
	got := Replay(a, start, []PendingInput{step})
	if got != explicit || got != live {
		t.Errorf("Replay(%v, %+v) = %v, want three 50 ms steps %v and live %v", start, step, got, explicit, live)
	}
	if want := (Pose{10.75, 10, 0}); !nearPose(got, want, 1e-12) {
		t.Errorf("Replay(%v, %+v) = %v, want %v", start, step, got, want)
	}
}

func TestReplay_TurnAndMoveSubstepsSteerNext(t *testing.T) {
	a := openArena()
	start := Pose{10, 10, 0}
	in := Input{Turn: 0.5, Throttle: 1}
	step := PendingInput{Tick: 1, Input: in, Duration: 100 * time.Millisecond}

	first := Step(a, start, in, StepInterval)
	want := Step(a, first, in, StepInterval) // the first substep's heading steers the second
	got := Replay(a, start, []PendingInput{step})
	if got != want {
		t.Errorf("Replay(%v, %+v) = %v, want two substeps %v", start, step, got, want)
	}
	if lumped := Step(a, start, in, step.Duration); got == lumped {
		t.Errorf("Replay(%v, %+v) = %v, the same as one 100 ms step: substeps were not used", start, step, got)
	}
	if !near(got.Heading, 0.125, HeadingUnit) {
		t.Errorf("Replay(%v, %+v) heading = %v, want 0.125 (0.5 x 2.5 rad/s x 0.1 s) to the heading grid", start, step, got.Heading)
	}
	if live := predictN(newLocal(t, a, start), in, 2); live != got {
		t.Errorf("live prediction = %v, replay = %v, want identical", live, got)
	}
}

func TestReplay_NonMultipleOfCadence(t *testing.T) {
	a := openArena()
	start := Pose{10, 10, 0.3}
	tests := []struct {
		name string
		in   Input
	}{
		{"straight", Input{Throttle: 1}},
		{"turning", Input{Turn: -0.7, Throttle: 0.6}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			step := PendingInput{Tick: 1, Input: tt.in, Duration: 120 * time.Millisecond}
			want := Step(a, Step(a, Step(a, start, tt.in, 50*time.Millisecond), tt.in, 50*time.Millisecond), tt.in, 20*time.Millisecond)
			if got := Replay(a, start, []PendingInput{step}); got != want {
				t.Errorf("Replay(%v, %+v) = %v, want 0.05+0.05+0.02 substeps %v", start, step, got, want)
			}
			if got := Substeps(step.Duration); got != 3 {
				t.Errorf("Substeps(%v) = %d, want 3", step.Duration, got)
			}
		})
	}
	// No duration is lost or counted twice: straight ahead at 5 units/s for 0.12 s is 0.6
	// (to the wire grid, snapped after each of three substeps).
	step := PendingInput{Tick: 1, Input: Input{Throttle: 1}, Duration: 120 * time.Millisecond}
	if d := start.Distance(Replay(a, start, []PendingInput{step})); !near(d, 0.6, 3*GridUnit) {
		t.Errorf("Replay(%+v) moved %v, want 0.6", step, d)
	}
}

func TestReplay_PreservesUnacknowledgedInputs(t *testing.T) {
	a := openArena()
	l := newLocal(t, a, Pose{10, 10, 0})
	predictN(l, Input{Turn: 0.2, Throttle: 1}, 5) // ticks 1..5

	steps := []struct {
		state State
		want  []uint32
	}{
		{State{Tick: 1, Pose: Pose{10, 10, 0}, Ack: 2}, []uint32{3, 4, 5}},
		{State{Tick: 2, Pose: Pose{10, 10, 0}, Ack: 2}, []uint32{3, 4, 5}}, // replayed, not consumed
		{State{Tick: 3, Pose: Pose{10, 10, 0}, Ack: 4}, []uint32{5}},
	}
	for _, st := range steps {
		l.Reconcile(st.state)
		if got := ticks(l.Pending()); !equalTicks(got, st.want) {
			t.Errorf("after Reconcile(%+v) pending ticks = %v, want %v", st.state, got, st.want)
		}
	}
}

// liveRun drives a Local with a varied input sequence and returns it with the inputs it sent.
func liveRun(t testing.TB, a *Arena, start Pose, n int) (*Local, []PendingInput) {
	l := newLocal(t, a, start)
	var sent []PendingInput
	for i := range n {
		in := Input{Turn: float64(i%7-3) / 3, Throttle: float64(i%5) / 4}
		sent = append(sent, l.Predict(in))
	}
	return l, sent
}

func TestReplay_IdenticalToLivePrediction(t *testing.T) {
	a := DefaultArena() // obstacles and walls are part of the step, so part of the check
	start := Pose{7, 7, 0}
	l, sent := liveRun(t, &a, start, 60)
	live := l.Predicted()
	for i := range 3 { // stable across repeated replays of the same inputs
		s := State{Tick: uint32(i + 1), Pose: start, Ack: 0}
		l.Reconcile(s)
		if got := l.Predicted(); got != live {
			t.Fatalf("replay %d: Reconcile(%+v) predicted %v, want live %v", i, s, got, live)
		}
		if got := Replay(&a, start, l.Pending()); got != live {
			t.Fatalf("replay %d: Replay = %v, want live %v", i, got, live)
		}
		if len(l.Pending()) != len(sent) {
			t.Fatalf("replay %d: %d pending, want %d", i, len(l.Pending()), len(sent))
		}
	}
	if c := l.Counters(); c.NonZeroResiduals != 0 || c.CorrectionsStarted != 0 || c.Snaps != 0 {
		t.Errorf("Counters() = %+v, want no residual, correction or snap", c)
	}
}

func TestReplay_RepeatedRebuildsDeterministic(t *testing.T) {
	a := DefaultArena()
	start := Pose{30, 10, 2}
	l, sent := liveRun(t, &a, start, 40)
	live := l.Predicted()

	// The server applies the same inputs; each snapshot acknowledges a little more while
	// later inputs stay pending.
	server := start
	for j, in := range sent[:30] {
		server = Simulate(&a, server, in.Input, in.Duration)
		if j%3 != 0 {
			continue
		}
		s := State{Tick: uint32(j + 1), Pose: server, Ack: in.Tick}
		l.Reconcile(s)
		if got := l.Predicted(); got != live {
			t.Fatalf("Reconcile(%+v) predicted %v, want %v", s, got, live)
		}
		if again := Replay(&a, s.Pose, l.Pending()); again != live {
			t.Fatalf("second Replay from %+v = %v, want %v", s, again, live)
		}
		if want := len(sent) - j - 1; len(l.Pending()) != want {
			t.Fatalf("after Reconcile(%+v): %d pending, want %d", s, len(l.Pending()), want)
		}
	}
}
