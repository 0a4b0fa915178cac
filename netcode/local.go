package netcode

import (
	"fmt"
	"math"
	"time"
)

// LocalConfig tunes the local (controlled) tank's prediction and correction.
type LocalConfig struct {
	// MaxCatchUp is the most prediction steps one Advance may ask for.
	MaxCatchUp int
	// MaxPending is the most unacknowledged inputs kept; the oldest is discarded beyond it.
	MaxPending int
	// Correction bounds how the visible pose follows a reconciled prediction.
	Correction CorrectionConfig

	// Switches for the teaching demo (Gambetta's client-side prediction pages). They only
	// change what the client shows; inputs are recorded and sent either way.

	// DisablePrediction keeps the tank where the server last put it: Predict records and
	// returns inputs but does not move the predicted pose.
	DisablePrediction bool
	// DisableReconciliation takes each accepted state's pose as the prediction without
	// replaying pending inputs, so the tank rubber-bands back by the round trip.
	DisableReconciliation bool

	// PartialStep draws the tank ahead of its newest step: the predicted pose advanced
	// through the part of the current step already elapsed, with the input given to
	// Present, recomputed every frame and never sent or kept. A key press then shows in the
	// next frame instead of after the next step. Off, the visible pose is interpolated
	// between the last two steps, a step behind. Either way prediction, replay and the
	// residual are the same.
	PartialStep bool
}

// DefaultInputLead is the server's default max input lead (Welcome.max_input_lead): how many
// move ticks past the last one it applied it accepts, 120 at its default idle timeout.
const DefaultInputLead = 120

// AckReturnSteps is how many more inputs than the server's input lead a client keeps
// unacknowledged: the server's acknowledgement of an input reaches the client a downlink's
// latency later, and every input sent meanwhile is still pending. 136 steps is 6.8 s: a
// second of latency with seconds of snapshots lost on the way. With fewer, a client behind
// a slow downlink forgets inputs the server then applies, and its replay misses them.
const AckReturnSteps = 136

// DefaultLocalConfig returns the settings tanknet clients use.
func DefaultLocalConfig() LocalConfig {
	return LocalConfig{
		MaxCatchUp:  5,                                 // 250 ms of backlog per frame: past a longer stall, dropping steps beats a spiral of slow frames
		MaxPending:  DefaultInputLead + AckReturnSteps, // every input the server may still apply (see AckReturnSteps)
		Correction:  DefaultCorrectionConfig(),
		PartialStep: true, // input shows within a frame; interpolating between steps costs a step of latency
	}
}

// Validate reports whether c is usable.
func (c LocalConfig) Validate() error {
	if c.MaxCatchUp < 1 {
		return fmt.Errorf("netcode: local max catch-up %d must be at least 1", c.MaxCatchUp)
	}
	if c.MaxPending < 1 {
		return fmt.Errorf("netcode: local max pending %d must be at least 1", c.MaxPending)
	}
	return c.Correction.Validate()
}

// Local is the client's controlled tank: it predicts each 50 ms step from the driver's input,
// keeps the inputs the server has not acknowledged, reconciles with every newer own state the
// server sends, and keeps the visible pose smooth through a bounded correction.
//
// Three poses matter. The predicted pose (Predicted) is gameplay truth: the server's latest
// accepted state plus a replay of every input it has not applied yet, advanced by each
// Predict. The target (Target) is the predicted pose as it was rebuilt by the last accepted
// state; it changes only then. The visible pose (Visible) is what is drawn: the predicted
// pose interpolated between the last two steps by the clock's alpha, plus the correction
// offset.
//
// A frame of a client looks like:
//
//	for range l.Advance(frame) {
//		send(l.Predict(input))
//	}
//	for _, s := range ownStatesReceived {
//		l.Reconcile(s)
//	}
//	draw(l.Visible())
//
// A Local is not safe for concurrent use.
type Local struct {
	arena   *Arena
	cfg     LocalConfig
	clock   *Clock
	now     time.Duration // sum of the frame times given to Advance
	pending Pending

	baseline   State
	lastTick   uint32 // newest move tick predicted
	prev, cur  Pose   // predicted pose before and after the newest step
	prevIn     Input  // the inputs of the step before the newest and of the newest
	curIn      Input
	present    Input // the input the partial step advances with (see Present)
	hasPresent bool  // Present has been called
	target     Pose
	correction correction
	counters   LocalCounters
}

// NewLocal returns the controlled tank starting from start, the first own state the server
// sent: it becomes the baseline and the predicted pose, and move ticks continue after its
// Ack. a must not change while the Local is in use. NewLocal panics if cfg is invalid.
func NewLocal(a *Arena, cfg LocalConfig, start State) *Local {
	if err := cfg.Validate(); err != nil {
		panic(err)
	}
	return &Local{
		arena:    a,
		cfg:      cfg,
		clock:    NewClock(StepInterval, cfg.MaxCatchUp),
		pending:  Pending{steps: make([]PendingInput, 0, cfg.MaxPending+1)},
		baseline: start,
		lastTick: start.Ack,
		prev:     start.Pose,
		cur:      start.Pose,
		target:   start.Pose,
	}
}

// Advance moves the local clock on by one rendered frame of length frame, ages the
// correction, and returns how many prediction steps are due now (at most MaxCatchUp). Call
// Predict that many times.
func (l *Local) Advance(frame time.Duration) int {
	l.now += max(0, frame)
	n := l.clock.Advance(frame)
	l.counters.DroppedSteps = l.clock.Dropped()
	l.correction.update(&l.cfg.Correction, l.now, &l.counters)
	return n
}

// Predict runs one StepInterval prediction step with in (clamped to [-1, 1]) through
// Simulate, exactly as the server and Reconcile's replay will, records it as pending under
// the next move tick, and returns it for the caller to send as a MoveInput.
func (l *Local) Predict(in Input) PendingInput { return l.PredictAmong(in, nil) }

// PredictAmong is Predict for a server whose contact is predicted (ContactPredicted): the
// step ends with the push (ContactPush) that gets the tank out of the tanks at others, the
// newest states of the other tanks the client was sent; the push is part of the input
// returned, so the server applies exactly what was predicted. With prediction disabled no
// push is claimed: there is no predicted pose to push.
func (l *Local) PredictAmong(in Input, others []Reach) PendingInput {
	l.lastTick = max(l.lastTick, l.baseline.Ack) + 1
	p := PendingInput{Tick: l.lastTick, Input: in.Clamp(), Duration: StepInterval}
	if l.pending.Len() >= l.cfg.MaxPending {
		l.counters.PendingDropped += l.pending.Ack(l.pending.steps[0].Tick)
	}
	l.prev = l.cur
	l.prevIn, l.curIn = l.curIn, p.Input
	if !l.cfg.DisablePrediction {
		moved := Simulate(l.arena, l.cur, p.Input, p.Duration)
		if len(others) > 0 {
			p.Push = ContactPush(l.arena, moved, others, p.Duration)
			if !p.Push.IsZero() {
				l.counters.Pushes++
			}
		}
		l.cur = ApplyPush(l.arena, moved, p.Push)
	}
	l.pending.Add(p)
	l.counters.Steps++
	return p
}

// Reconcile accepts s, a newer own state from the server, and rebuilds the prediction: s
// becomes the baseline, inputs at or below s.Ack are pruned, the rest are replayed from s's
// pose, and the result is the new predicted pose and target. The visible pose does not jump:
// the difference becomes the correction, or a snap when it is too large. Reconcile returns
// false, and changes nothing but a counter, when s.Tick is not newer than the baseline's.
func (l *Local) Reconcile(s State) bool { return l.reconcile(s, false) }

// ReconcileRespawn is Reconcile for a state in which the tank came back from being destroyed
// (a respawn): the server placed it anew rather than moved it, so the visible pose snaps to
// the rebuilt prediction however small the difference, as it would past the snap threshold.
func (l *Local) ReconcileRespawn(s State) bool { return l.reconcile(s, true) }

func (l *Local) reconcile(s State, respawn bool) bool {
	if s.Tick <= l.baseline.Tick {
		l.counters.StaleRejects++
		return false
	}
	visible := l.Visible()
	l.baseline = s
	l.counters.Reconciliations++
	l.counters.Pruned += l.pending.Ack(s.Ack)

	rebuilt := s.Pose
	if !l.cfg.DisablePrediction && !l.cfg.DisableReconciliation {
		steps := l.pending.Steps()
		rebuilt = Replay(l.arena, s.Pose, steps)
		for _, st := range steps {
			l.counters.ReplayedSubsteps += Substeps(st.Duration)
		}
	}
	l.recordResidual(l.cur, rebuilt)
	if respawn {
		l.prev, l.cur, l.target = rebuilt, rebuilt, rebuilt
		l.correction.snap(&l.counters)
		return true
	}
	if rebuilt == l.cur {
		// The prediction was right: the visible pose stays where it is, and a correction
		// still running goes on decaying as it was (folding it would start its decay over,
		// and a tank corrected once would never converge while states keep agreeing), unless
		// what is left of it is too small to draw.
		l.target = rebuilt
		cfg := &l.cfg.Correction
		if dx, dy, dh := l.correction.offset(cfg, l.now); math.Hypot(dx, dy) <= cfg.Epsilon && math.Abs(dh) <= cfg.Epsilon {
			l.correction.apply(cfg, l.now, dx, dy, dh, &l.counters)
		}
		return true
	}

	// Carry the render interpolation over: the previous step moves with the newest one.
	dx, dy, dh := rebuilt.X-l.cur.X, rebuilt.Y-l.cur.Y, l.cur.AngleTo(rebuilt)
	l.prev = Pose{X: l.prev.X + dx, Y: l.prev.Y + dy, Heading: WrapAngle(l.prev.Heading + dh)}
	l.cur, l.target = rebuilt, rebuilt

	smooth := l.base()
	cx, cy := visible.X-smooth.X, visible.Y-smooth.Y
	if l.correction.apply(&l.cfg.Correction, l.now, cx, cy, smooth.AngleTo(visible), &l.counters) {
		l.prev = l.cur // a snap shows the rebuilt prediction itself
	}
	return true
}

func (l *Local) recordResidual(before, after Pose) {
	d, a := before.Distance(after), math.Abs(before.AngleTo(after))
	c := &l.counters
	c.LastResidual, c.LastResidualAngle = d, a
	c.MaxResidual, c.MaxResidualAngle = max(c.MaxResidual, d), max(c.MaxResidualAngle, a)
	if d != 0 || a != 0 {
		c.NonZeroResiduals++
	}
}

// partialStep reports whether the visible pose is the partial step (see
// LocalConfig.PartialStep) rather than an interpolation between the last two steps.
func (l *Local) partialStep() bool {
	return l.cfg.PartialStep && l.hasPresent && !l.cfg.DisablePrediction
}

// base returns the pose the visible one is built on, before the correction offset:
// the predicted pose advanced through the elapsed part of the current step with the
// presented input, or interpolated between the last two steps.
func (l *Local) base() Pose {
	if l.partialStep() {
		return Simulate(l.arena, l.cur, l.present, l.clock.Elapsed())
	}
	return Lerp(l.prev, l.cur, l.clock.Alpha())
}

// Present gives the input held now, which the visible pose advances with through the
// elapsed part of the current step when LocalConfig.PartialStep is on. Call it every frame
// after the due Predicts. It changes nothing that is sent, kept or replayed.
func (l *Local) Present(in Input) {
	l.present, l.hasPresent = in.Clamp(), true
}

// VisibleInput returns the newest input the visible pose was moved with: the presented input
// while a partial step is drawn, otherwise the input of the step the pose interpolates
// towards. It is false while the visible pose depends on no input (prediction off, or no
// step run yet), and lets a measurement tell when a new input first reaches the screen.
func (l *Local) VisibleInput() (Input, bool) {
	steps := l.counters.Steps
	switch {
	case l.cfg.DisablePrediction:
		return Input{}, false
	case l.partialStep() && l.clock.Elapsed() > 0:
		return l.present, true
	case l.partialStep() || l.clock.Alpha() > 0:
		return l.curIn, steps > 0
	}
	return l.prevIn, steps > 1
}

// Visible returns the pose to draw now: the predicted pose advanced through the elapsed part
// of the current step (LocalConfig.PartialStep, after a Present) or else interpolated
// between its last two steps by the clock's alpha, plus the correction offset.
func (l *Local) Visible() Pose {
	p := l.base()
	dx, dy, dh := l.correction.offset(&l.cfg.Correction, l.now)
	return Pose{X: p.X + dx, Y: p.Y + dy, Heading: WrapAngle(p.Heading + dh)}
}

// Offset returns the correction offset now, visible minus interpolated predicted pose; all
// zero when no correction is active.
func (l *Local) Offset() Pose {
	dx, dy, dh := l.correction.offset(&l.cfg.Correction, l.now)
	return Pose{X: dx, Y: dy, Heading: dh}
}

// Correcting reports whether a correction is active.
func (l *Local) Correcting() bool { return l.correction.active }

// Predicted returns the predicted pose after the newest step: the client's gameplay truth.
func (l *Local) Predicted() Pose { return l.cur }

// Target returns the predicted pose as rebuilt by the last accepted state (the start state
// until one is accepted). Predict does not change it.
func (l *Local) Target() Pose { return l.target }

// Baseline returns the last accepted own state.
func (l *Local) Baseline() State { return l.baseline }

// Pending returns the unacknowledged inputs in tick order. The slice is valid until the next
// Predict or Reconcile; callers must not modify it.
func (l *Local) Pending() []PendingInput { return l.pending.Steps() }

// Alpha returns the render alpha, in [0, 1), that Visible interpolates with.
func (l *Local) Alpha() float64 { return l.clock.Alpha() }

// Counters returns what l has done so far.
func (l *Local) Counters() LocalCounters {
	c := l.counters
	c.Pending = l.pending.Len()
	return c
}
