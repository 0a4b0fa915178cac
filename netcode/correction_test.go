package netcode

import (
	"math"
	"testing"
	"time"
)

// Scenarios of specs/bounded-correction.md, plus the correction's own rules.

func TestCorrection_SmallErrorBounded(t *testing.T) {
	l := newLocal(t, openArena(), Pose{10, 10, 0})
	s := State{Tick: 1, Pose: Pose{10.4, 10, -0.2}}
	l.Reconcile(s)
	if got := l.Baseline(); got != s {
		t.Errorf("Baseline() = %+v, want the accepted %+v", got, s)
	}
	if c := l.Counters(); c.Snaps != 0 || c.CorrectionsStarted != 1 {
		t.Errorf("Counters() = %+v, want a correction and no snap", c)
	}
	cfg := DefaultCorrectionConfig()
	for elapsed := time.Duration(0); elapsed <= cfg.Duration+frame; elapsed += frame {
		if o := l.Offset(); math.Hypot(o.X, o.Y) > 0.4+1e-12 || math.Abs(o.Heading) > 0.2+1e-12 {
			t.Fatalf("at %v Offset() = %v, larger than the residual", elapsed, o)
		}
		l.Advance(frame)
	}
	if l.Correcting() || l.Visible() != s.Pose {
		t.Errorf("after %v Visible() = %v, want converged to %v", cfg.Duration, l.Visible(), s.Pose)
	}
}

func TestCorrection_NewSmallErrorFoldsNoStacking(t *testing.T) {
	l := newLocal(t, openArena(), Pose{10, 10, 0})
	l.Reconcile(State{Tick: 1, Pose: Pose{10.4, 10, 0}})
	for range 3 {
		l.Advance(frame)
	}
	visible := l.Visible()
	s := State{Tick: 2, Pose: Pose{10.4, 10.3, 0}}
	l.Reconcile(s)
	if got := l.Visible(); !nearPose(got, visible, 1e-12) {
		t.Errorf("Reconcile(%+v) moved the visible pose from %v to %v", s, visible, got)
	}
	// One tail: the offset is exactly the newest residual, not the old tail plus it.
	want := Pose{visible.X - s.Pose.X, visible.Y - s.Pose.Y, 0}
	if got := l.Offset(); !nearPose(got, want, 1e-12) {
		t.Errorf("Offset() = %v, want the newest residual %v", got, want)
	}
	if c := l.Counters(); c.CorrectionsStarted != 1 || c.CorrectionsFolded != 1 || c.Snaps != 0 {
		t.Errorf("Counters() = %+v, want 1 started, 1 folded, no snap", c)
	}
	for range 13 { // one Duration after the fold, the single tail is done
		l.Advance(frame)
	}
	if l.Correcting() || l.Visible() != s.Pose {
		t.Errorf("Visible() = %v (correcting %v), want converged to %v", l.Visible(), l.Correcting(), s.Pose)
	}
	if c := l.Counters(); c.CorrectionsConverged != 1 {
		t.Errorf("Counters().CorrectionsConverged = %d, want 1", c.CorrectionsConverged)
	}
}

func TestCorrection_EscalatesToSnapOnLargeError(t *testing.T) {
	tests := []struct {
		name string
		pose Pose
	}{
		{"position", Pose{12.5, 10, 0}},
		{"rotation", Pose{10.1, 10, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLocal(t, openArena(), Pose{10, 10, 0})
			l.Reconcile(State{Tick: 1, Pose: Pose{10.2, 10, 0.1}})
			l.Advance(frame)
			s := State{Tick: 2, Pose: tt.pose}
			l.Reconcile(s)
			if l.Correcting() || l.Visible() != s.Pose {
				t.Errorf("Reconcile(%+v): Visible() = %v, want snapped to %v", s, l.Visible(), s.Pose)
			}
			if c := l.Counters(); c.Snaps != 1 || c.CorrectionsEscalated != 1 {
				t.Errorf("Counters() = %+v, want 1 snap escalating the correction", c)
			}
		})
	}
}

// The thresholds are the largest residuals smoothed: a residual of exactly SnapDistance or
// SnapAngle starts a correction, and one a little larger snaps.
func TestCorrection_ThresholdsAreTheLargestSmoothed(t *testing.T) {
	cfg := DefaultCorrectionConfig()
	tests := []struct {
		name     string
		pose     Pose
		wantSnap bool
	}{
		{"distance at the threshold", Pose{10 + cfg.SnapDistance, 10, 0}, false},
		{"distance just over it", Pose{10 + cfg.SnapDistance + 1e-9, 10, 0}, true},
		{"angle at the threshold", Pose{10, 10, cfg.SnapAngle}, false},
		{"angle just over it", Pose{10, 10, cfg.SnapAngle + 1e-9}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLocal(t, openArena(), Pose{10, 10, 0})
			l.Reconcile(State{Tick: 1, Pose: tt.pose})
			if snapped := l.Counters().Snaps == 1; snapped != tt.wantSnap || l.Correcting() == tt.wantSnap {
				t.Errorf("Reconcile(%v) from (10, 10, 0): snapped %v, correcting %v; want snapped %v", tt.pose, snapped, l.Correcting(), tt.wantSnap)
			}
		})
	}
}

func TestCorrection_EscalatesToSnapAfterBudget(t *testing.T) {
	cfg := DefaultCorrectionConfig()
	l := newLocal(t, openArena(), Pose{10, 10, 0})
	x := 10.0
	var tick uint32
	var now, started time.Duration
	// Every 50 ms a new small error keeps the correction from converging.
	for l.Counters().Snaps == 0 && now <= 2*cfg.Budget {
		now += frame
		if l.Advance(frame) > 0 {
			tick++
			x += 0.1
			l.Reconcile(State{Tick: tick, Pose: Pose{x, 10, 0}})
			if tick == 1 {
				started = now
			}
		}
	}
	if took := now - started; took > cfg.Budget+frame || took < cfg.Budget-frame {
		t.Errorf("snapped %v after the correction started, want when the budget %v ran out (within a frame)", took, cfg.Budget)
	}
	c := l.Counters()
	if c.Snaps != 1 || c.CorrectionsEscalated != 1 || c.CorrectionsStarted != 1 || c.CorrectionsFolded == 0 {
		t.Errorf("Counters() = %+v, want 1 started, some folded, 1 escalated snap", c)
	}
	// Snapped to the rebuilt pose: the newest state's, as nothing is pending.
	rebuilt := Pose{x, 10, 0}
	if l.Correcting() || l.Offset() != (Pose{}) || l.Visible() != rebuilt || l.Predicted() != rebuilt {
		t.Errorf("after escalation: offset %v, Visible() %v, Predicted() %v; want no offset and both at %v", l.Offset(), l.Visible(), l.Predicted(), rebuilt)
	}
	// Prediction goes on from there.
	in := Input{Throttle: 1, Turn: 0.5}
	l.Predict(in)
	if got, want := l.Predicted(), Step(openArena(), rebuilt, in, StepInterval); got != want {
		t.Errorf("Predict after the escalated snap = %v, want %v", got, want)
	}
}

func TestCorrection_ShortestArc(t *testing.T) {
	// Across the +-pi seam, the residual is 0.28 rad, not 6 rad: smoothed, not snapped.
	l := newLocal(t, openArena(), Pose{10, 10, 3})
	s := State{Tick: 1, Pose: Pose{10, 10, -3}}
	l.Reconcile(s)
	if c := l.Counters(); c.Snaps != 0 || c.CorrectionsStarted != 1 {
		t.Fatalf("Counters() = %+v, want a correction and no snap", c)
	}
	if got, want := l.Offset().Heading, 6-2*math.Pi; !near(got, want, 1e-12) {
		t.Errorf("Offset().Heading = %v, want %v", got, want)
	}
	l.Advance(DefaultCorrectionConfig().Duration / 2)
	if h := l.Visible().Heading; math.Abs(h) < 3 {
		t.Errorf("halfway Visible().Heading = %v, want near pi, not through zero", h)
	}
}

func TestCorrection_EaseOut(t *testing.T) {
	cfg := DefaultCorrectionConfig()
	c := correction{active: true, dx: 1, dy: -2, dh: 0.4, start: time.Second, first: time.Second}
	tests := []struct {
		at   time.Duration
		want float64
	}{
		{time.Second - frame, 1}, // before its start it is the residual
		{time.Second, 1},
		{time.Second + cfg.Duration/2, 0.25},
		{time.Second + cfg.Duration, 0},
		{time.Second + 2*cfg.Duration, 0},
	}
	for _, tt := range tests {
		dx, dy, dh := c.offset(&cfg, tt.at)
		if !near(dx, tt.want, 1e-12) || !near(dy, -2*tt.want, 1e-12) || !near(dh, 0.4*tt.want, 1e-12) {
			t.Errorf("offset(%v) = (%v, %v, %v), want %v of (1, -2, 0.4)", tt.at, dx, dy, dh, tt.want)
		}
	}
}

func TestCorrection_TinyResidualIsAbsorbed(t *testing.T) {
	l := newLocal(t, openArena(), Pose{10, 10, 0})
	l.Reconcile(State{Tick: 1, Pose: Pose{10.3, 10, 0}})
	l.Advance(DefaultCorrectionConfig().Duration - time.Millisecond) // almost done
	l.Reconcile(State{Tick: 2, Pose: Pose{10.3, 10, 0}})             // residual below epsilon
	if l.Correcting() || l.Visible() != (Pose{10.3, 10, 0}) {
		t.Errorf("Visible() = %v (correcting %v), want (10.3, 10, 0)", l.Visible(), l.Correcting())
	}
	if c := l.Counters(); c.CorrectionsConverged != 1 || c.Snaps != 0 {
		t.Errorf("Counters() = %+v, want converged, no snap", c)
	}
	l.Reconcile(State{Tick: 3, Pose: Pose{10.3, 10, 1e-6}})
	if c := l.Counters(); c.CorrectionsStarted != 1 || c.Snaps != 0 {
		t.Errorf("Counters() = %+v, want nothing new for a tiny residual", c)
	}
}

func TestCorrection_Disabled(t *testing.T) {
	cfg := DefaultLocalConfig()
	cfg.Correction.Disabled = true
	l := NewLocal(openArena(), cfg, State{Pose: Pose{10, 10, 0}})
	s := State{Tick: 1, Pose: Pose{10.1, 10, 0}}
	l.Reconcile(s)
	if l.Visible() != s.Pose || l.Counters().Snaps != 1 {
		t.Errorf("Reconcile(%+v) with correction disabled: Visible() = %v, snaps %d, want snap", s, l.Visible(), l.Counters().Snaps)
	}
}

func TestCorrectionConfigValidate(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(*CorrectionConfig)
		wantErr bool
	}{
		{"default", func(*CorrectionConfig) {}, false},
		{"zero snap distance", func(c *CorrectionConfig) { c.SnapDistance = 0 }, true},
		{"NaN snap angle", func(c *CorrectionConfig) { c.SnapAngle = math.NaN() }, true},
		{"infinite snap distance", func(c *CorrectionConfig) { c.SnapDistance = math.Inf(1) }, true},
		{"zero duration", func(c *CorrectionConfig) { c.Duration = 0 }, true},
		{"budget below duration", func(c *CorrectionConfig) { c.Budget = c.Duration - 1 }, true},
		{"budget equals duration", func(c *CorrectionConfig) { c.Budget = c.Duration }, false},
		{"negative epsilon", func(c *CorrectionConfig) { c.Epsilon = -1 }, true},
		{"epsilon above snap", func(c *CorrectionConfig) { c.Epsilon = 5 }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := DefaultCorrectionConfig()
			tt.edit(&c)
			if err := c.Validate(); (err != nil) != tt.wantErr {
				t.Errorf("Validate(%+v) = %v, want error %v", c, err, tt.wantErr)
			}
		})
	}
}

// TestCorrection_AgreeingStatesLetItConverge: once a residual started a correction, states
// whose replay agrees with the prediction leave it decaying as it was: it converges within
// Duration however many of them arrive, and never escalates to a snap.
func TestCorrection_AgreeingStatesLetItConverge(t *testing.T) {
	l := newLocal(t, openArena(), Pose{10, 10, 0})
	l.Reconcile(State{Tick: 1, Pose: Pose{10.3, 10, 0}}) // a residual of 0.3: a correction starts
	for tick := uint32(2); tick < 40; tick++ {           // two seconds of states that agree
		l.Advance(StepInterval)
		l.Reconcile(State{Tick: tick, Pose: Pose{10.3, 10, 0}})
	}
	c := l.Counters()
	if l.Correcting() || c.CorrectionsStarted != 1 || c.CorrectionsConverged != 1 || c.CorrectionsFolded != 0 || c.Snaps != 0 {
		t.Errorf("Counters() = %+v (correcting %v), want one correction, converged, never folded or snapped", c, l.Correcting())
	}
	if got := l.Visible(); got != (Pose{10.3, 10, 0}) {
		t.Errorf("Visible() = %v, want the server's pose", got)
	}
}

// A respawn snaps the visible pose to the rebuilt prediction however close it is: the same
// small difference that Reconcile smooths, ReconcileRespawn shows at once.
func TestReconcileRespawn_SnapsEvenASmallDifference(t *testing.T) {
	spawn := Pose{10.5, 10, 0} // half a unit from where the wreck stood: Reconcile would smooth it
	smooth := newLocal(t, openArena(), Pose{10, 10, 0})
	smooth.Reconcile(State{Tick: 1, Pose: spawn})
	if !smooth.Correcting() {
		t.Fatalf("Reconcile to %v: not correcting; the test needs a difference Reconcile smooths", spawn)
	}
	l := newLocal(t, openArena(), Pose{10, 10, 0})
	if !l.ReconcileRespawn(State{Tick: 1, Pose: spawn}) {
		t.Fatal("ReconcileRespawn refused a newer state")
	}
	if l.Correcting() || l.Visible() != spawn || l.Predicted() != spawn || l.Target() != spawn {
		t.Errorf("after ReconcileRespawn: visible %v, predicted %v, target %v, correcting %v; want all %v, no correction",
			l.Visible(), l.Predicted(), l.Target(), l.Correcting(), spawn)
	}
	if c := l.Counters(); c.Snaps != 1 || c.Reconciliations != 1 {
		t.Errorf("Counters() = %+v, want 1 reconciliation and 1 snap", c)
	}
	if l.ReconcileRespawn(State{Tick: 1, Pose: Pose{20, 20, 0}}) || l.Predicted() != spawn {
		t.Error("ReconcileRespawn took a state no newer than the baseline")
	}
}
