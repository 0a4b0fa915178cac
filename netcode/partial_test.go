package netcode

import (
	"testing"
	"time"
)

func TestLocal_PartialStepShowsInputWithinTheStep(t *testing.T) {
	a := openArena()
	start := Pose{X: 10, Y: 10}
	l := newLocal(t, a, start)
	fwd := Input{Throttle: 1}

	// 20 ms into the first step, nothing predicted yet: the key pressed now already moves
	// the drawn tank, by 20 ms of driving.
	if n := l.Advance(20 * time.Millisecond); n != 0 {
		t.Fatalf("Advance(20ms) = %d steps, want 0", n)
	}
	l.Present(fwd)
	if got, want := l.Visible(), Simulate(a, start, fwd, 20*time.Millisecond); got != want {
		t.Errorf("Visible() 20 ms into a step = %v, want the partial step %v", got, want)
	}
	if in, ok := l.VisibleInput(); !ok || in != fwd {
		t.Errorf("VisibleInput() = %v, %v; want %v, true", in, ok, fwd)
	}
	if got := l.Predicted(); got != start {
		t.Errorf("Predicted() = %v after a partial step, want it untouched at %v", got, start)
	}
	if got := len(l.Pending()); got != 0 {
		t.Errorf("a partial step recorded %d pending inputs, want none", got)
	}

	// Across the step boundary the drawn tank does not jump: the step that becomes due
	// lands where the partial step was heading.
	before := l.Visible()
	l.Advance(29 * time.Millisecond)
	l.Present(fwd)
	justBefore := l.Visible()
	if n := l.Advance(2 * time.Millisecond); n != 1 {
		t.Fatalf("Advance across the boundary = %d steps, want 1", n)
	}
	l.Predict(fwd)
	l.Present(fwd)
	after := l.Visible()
	if justBefore.X <= before.X || after.X <= justBefore.X {
		t.Errorf("drawn x went %v -> %v -> %v, want steadily forward", before.X, justBefore.X, after.X)
	}
	if step := after.X - justBefore.X; step > 0.011 { // 2 ms at speed 5 is 0.01, plus grid rounding
		t.Errorf("drawn x jumped by %v across the step boundary, want about 2 ms of driving (0.01)", step)
	}
}

func TestLocal_PartialStepChangesNothingButTheDrawing(t *testing.T) {
	a := openArena()
	start := State{Tick: 1, Pose: Pose{X: 5, Y: 5}}
	partial := NewLocal(a, DefaultLocalConfig(), start)
	cfg := DefaultLocalConfig()
	cfg.PartialStep = false
	between := NewLocal(a, cfg, start)

	// The same frames, inputs and server states on both; the server applies each input a
	// little late and slightly differently, so reconciliations have real residuals.
	inputs := []Input{{Throttle: 1}, {Throttle: 1, Turn: 0.5}, {Turn: -1}, {Throttle: -0.5}}
	server := start.Pose
	var sent []PendingInput
	tick := uint32(1)
	for frame := range 240 {
		in := inputs[(frame/25)%len(inputs)]
		for _, l := range []*Local{partial, between} {
			for n := l.Advance(17 * time.Millisecond); n > 0; n-- {
				p := l.Predict(in)
				if l == partial {
					sent = append(sent, p)
				}
			}
			l.Present(in)
		}
		if frame%6 == 5 && len(sent) > 2 { // a snapshot every 100 ms acknowledging all but two inputs
			for _, p := range sent[:len(sent)-2] {
				server = Simulate(a, server, Input{Throttle: p.Input.Throttle * 0.9, Turn: p.Input.Turn}, p.Duration)
			}
			tick++
			s := State{Tick: tick, Pose: server, Ack: sent[len(sent)-3].Tick}
			sent = sent[len(sent)-2:]
			if partial.Reconcile(s) != between.Reconcile(s) {
				t.Fatal("the two Locals disagree on accepting a state")
			}
		}
		if partial.Predicted() != between.Predicted() {
			t.Fatalf("frame %d: Predicted %v with the partial step, %v without; want identical", frame, partial.Predicted(), between.Predicted())
		}
	}
	pc, bc := partial.Counters(), between.Counters()
	if pc.LastResidual != bc.LastResidual || pc.MaxResidual != bc.MaxResidual || pc.NonZeroResiduals != bc.NonZeroResiduals ||
		pc.Steps != bc.Steps || pc.Pending != bc.Pending || pc.ReplayedSubsteps != bc.ReplayedSubsteps {
		t.Errorf("counters differ:\n partial %+v\n between %+v", pc, bc)
	}
	if bc.NonZeroResiduals == 0 {
		t.Error("the test drove no residual at all; it would not notice a difference")
	}
	pp, bp := partial.Pending(), between.Pending()
	if len(pp) != len(bp) {
		t.Fatalf("pending %d vs %d inputs", len(pp), len(bp))
	}
	for i := range pp {
		if pp[i] != bp[i] {
			t.Errorf("pending input %d: %+v vs %+v", i, pp[i], bp[i])
		}
	}
}

func TestLocal_VisibleInputWithoutPartialStep(t *testing.T) {
	a := openArena()
	cfg := DefaultLocalConfig()
	cfg.PartialStep = false
	l := NewLocal(a, cfg, State{Pose: Pose{X: 10, Y: 10}})
	fwd := Input{Throttle: 1}
	l.Advance(20 * time.Millisecond)
	l.Present(fwd)
	if _, ok := l.VisibleInput(); ok {
		t.Error("VisibleInput before any step is ok, want false: the pose has not moved with any input")
	}
	l.Advance(30 * time.Millisecond) // due: one step
	l.Predict(fwd)
	if _, ok := l.VisibleInput(); ok {
		t.Error("at alpha 0 after the first step VisibleInput is ok, want false: the pose is the step before")
	}
	l.Advance(time.Millisecond)
	if in, ok := l.VisibleInput(); !ok || in != fwd {
		t.Errorf("VisibleInput after alpha > 0 = %v, %v; want %v, true", in, ok, fwd)
	}
}
