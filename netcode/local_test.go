package netcode

import (
	"testing"
	"time"
)

func TestLocalConfigValidate(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(*LocalConfig)
		wantErr bool
	}{
		{"default", func(*LocalConfig) {}, false},
		{"no catch-up", func(c *LocalConfig) { c.MaxCatchUp = 0 }, true},
		{"no pending", func(c *LocalConfig) { c.MaxPending = 0 }, true},
		{"bad correction", func(c *LocalConfig) { c.Correction.Duration = 0 }, true},
		{"all switched off", func(c *LocalConfig) {
			c.DisablePrediction, c.DisableReconciliation, c.Correction.Disabled = true, true, true
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := DefaultLocalConfig()
			tt.edit(&c)
			if err := c.Validate(); (err != nil) != tt.wantErr {
				t.Errorf("Validate(%+v) = %v, want error %v", c, err, tt.wantErr)
			}
		})
	}
}

func TestNewLocalPanicsOnBadConfig(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("NewLocal with MaxPending 0 did not panic")
		}
	}()
	NewLocal(openArena(), LocalConfig{}, State{})
}

func TestLocal_RenderInterpolation(t *testing.T) {
	a := openArena()
	l := newLocal(t, a, Pose{10, 10, 0})
	in := Input{Throttle: 1}
	// 50 ms: one step; the visible pose starts that step's interpolation at alpha 0.
	if n := l.Advance(StepInterval); n != 1 {
		t.Fatalf("Advance(%v) = %d, want 1", StepInterval, n)
	}
	l.Predict(in)
	if got := l.Visible(); got != (Pose{10, 10, 0}) {
		t.Errorf("Visible() at alpha 0 = %v, want the previous step (10, 10, 0)", got)
	}
	l.Advance(20 * time.Millisecond)
	if got, want := l.Visible(), (Pose{10.1, 10, 0}); !nearPose(got, want, 1e-12) || !near(l.Alpha(), 0.4, 1e-12) {
		t.Errorf("Visible() at alpha %v = %v, want %v", l.Alpha(), got, want)
	}
}

func TestLocal_MoveTicksFollowStartAck(t *testing.T) {
	l := NewLocal(openArena(), DefaultLocalConfig(), State{Tick: 40, Pose: Pose{10, 10, 0}, Ack: 17})
	if got := l.Predict(Input{}).Tick; got != 18 {
		t.Errorf("first Predict tick = %d, want 18 (after Ack 17)", got)
	}
	l.Reconcile(State{Tick: 41, Pose: Pose{10, 10, 0}, Ack: 30}) // the server is ahead of us
	if got := l.Predict(Input{}).Tick; got != 31 {
		t.Errorf("Predict tick after Ack 30 = %d, want 31", got)
	}
	if got := l.Predict(Input{Turn: 4, Throttle: -2}); got.Input != (Input{Turn: 1, Throttle: -1}) || got.Duration != StepInterval {
		t.Errorf("Predict returned %+v, want clamped input and a 50 ms duration", got)
	}
}

func TestLocal_MaxPendingDropsOldest(t *testing.T) {
	cfg := DefaultLocalConfig()
	cfg.MaxPending = 4
	l := NewLocal(openArena(), cfg, State{Pose: Pose{10, 10, 0}})
	predictN(l, Input{Throttle: 1}, 7)
	if got, want := ticks(l.Pending()), []uint32{4, 5, 6, 7}; !equalTicks(got, want) {
		t.Errorf("pending ticks = %v, want %v", got, want)
	}
	if c := l.Counters(); c.PendingDropped != 3 || c.Pending != 4 || c.Steps != 7 {
		t.Errorf("Counters() = %+v, want 3 dropped, 4 pending, 7 steps", c)
	}
}

func TestLocal_DisablePrediction(t *testing.T) {
	cfg := DefaultLocalConfig()
	cfg.DisablePrediction = true
	l := NewLocal(openArena(), cfg, State{Pose: Pose{10, 10, 0}})
	predictN(l, Input{Throttle: 1}, 3)
	if got := l.Predicted(); got != (Pose{10, 10, 0}) {
		t.Errorf("Predicted() with prediction off = %v, want the start pose", got)
	}
	if len(l.Pending()) != 3 {
		t.Errorf("%d pending, want 3: inputs are still recorded for sending", len(l.Pending()))
	}
	s := State{Tick: 1, Pose: Pose{10.25, 10, 0}, Ack: 1}
	l.Reconcile(s)
	if got := l.Predicted(); got != s.Pose {
		t.Errorf("Reconcile(%+v) with prediction off: Predicted() = %v, want the server pose", s, got)
	}
}

func TestLocal_DisableReconciliation(t *testing.T) {
	cfg := DefaultLocalConfig()
	cfg.DisableReconciliation = true
	l := NewLocal(openArena(), cfg, State{Pose: Pose{10, 10, 0}})
	predictN(l, Input{Throttle: 1}, 4)
	s := State{Tick: 1, Pose: Pose{10.25, 10, 0}, Ack: 1}
	l.Reconcile(s)
	if got := l.Predicted(); got != s.Pose {
		t.Errorf("Reconcile(%+v) without replay: Predicted() = %v, want the server pose", s, got)
	}
	if c := l.Counters(); c.ReplayedSubsteps != 0 || !near(c.LastResidual, 0.75, 1e-12) {
		t.Errorf("Counters() = %+v, want no replay and a 0.75 rubber band", c)
	}
}

func TestLocal_CatchUpIsCapped(t *testing.T) {
	l := newLocal(t, openArena(), Pose{10, 10, 0})
	if n := l.Advance(time.Second); n != DefaultLocalConfig().MaxCatchUp {
		t.Errorf("Advance(1s) = %d, want the cap %d", n, DefaultLocalConfig().MaxCatchUp)
	}
	if got := l.Counters().DroppedSteps; got != 15 {
		t.Errorf("Counters().DroppedSteps = %d, want 15", got)
	}
}
