package view

import (
	"strings"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/netcode"
)

// TestTechniqueToggles walks the switches as a state machine: from each of the eight
// states, every key flips its own switch and nothing else, so any key pressed twice (P-P,
// R-R, I-I) restores the state; reconciliation acts only with prediction on, and the HUD
// says so.
func TestTechniqueToggles(t *testing.T) {
	keys := []struct {
		name   string
		toggle func(*Techniques)
		flips  func(Techniques) Techniques
	}{
		{"P", (*Techniques).TogglePrediction, func(s Techniques) Techniques { s.Prediction = !s.Prediction; return s }},
		{"R", (*Techniques).ToggleReconciliation, func(s Techniques) Techniques { s.Reconciliation = !s.Reconciliation; return s }},
		{"I", (*Techniques).ToggleInterpolation, func(s Techniques) Techniques { s.Interpolation = !s.Interpolation; return s }},
	}
	for bits := range 8 {
		start := Techniques{Prediction: bits&1 != 0, Reconciliation: bits&2 != 0, Interpolation: bits&4 != 0}
		for _, k := range keys {
			got := start
			k.toggle(&got)
			if want := k.flips(start); got != want {
				t.Errorf("%s on %+v = %+v, want %+v", k.name, start, got, want)
			}
			k.toggle(&got)
			if got != start {
				t.Errorf("%s-%s on %+v = %+v, want the state restored", k.name, k.name, start, got)
			}
		}
		if got, want := start.Reconciling(), start.Prediction && start.Reconciliation; got != want {
			t.Errorf("%+v.Reconciling() = %v, want %v", start, got, want)
		}
	}
	waiting := Techniques{Reconciliation: true}
	if s := waiting.String(); !strings.Contains(s, "reconciliation on, waits for prediction") {
		t.Errorf("String() = %q, want it to say reconciliation waits for prediction", s)
	}
}

// drive runs n prediction steps of in on l, like a client frame loop would.
func drive(l *netcode.Local, u *Unreconciled, a *netcode.Arena, in netcode.Input, n int) {
	for range n {
		for k := l.Advance(netcode.StepInterval); k > 0; k-- {
			l.Predict(in)
		}
		u.Observe(a, l, in)
	}
}

func TestLocalPoseFollowsTheSwitches(t *testing.T) {
	a := netcode.DefaultArena()
	start := netcode.State{Tick: 1, Pose: netcode.Pose{X: 5, Y: 12}}
	l := netcode.NewLocal(&a, netcode.DefaultLocalConfig(), start)
	var u Unreconciled
	fwd := netcode.Input{Throttle: 1}
	drive(l, &u, &a, fwd, 6) // six steps ahead of the server

	if got, want := (Techniques{}).LocalPose(l, &u), start.Pose; got != want {
		t.Errorf("prediction off: LocalPose = %v, want the baseline %v", got, want)
	}
	if got, want := AllOn().LocalPose(l, &u), l.Visible(); got != want {
		t.Errorf("all on: LocalPose = %v, want Visible %v", got, want)
	}
	// Without reconciliation nothing has been reconciled yet, so the shadow agrees with
	// the prediction.
	noRec := Techniques{Prediction: true}
	if got, want := noRec.LocalPose(l, &u), l.Visible(); got.Distance(want) > 1e-9 {
		t.Errorf("no reconciliation before any state: LocalPose = %v, want %v", got, want)
	}

	// The server has applied two of the six inputs. A reconciling client replays the other
	// four; an unreconciled one restarts from the server's pose and loses them.
	two := netcode.Simulate(&a, start.Pose, fwd, 2*netcode.StepInterval)
	l.Reconcile(netcode.State{Tick: 2, Pose: two, Ack: l.Pending()[1].Tick})
	u.Observe(&a, l, fwd)
	if got := noRec.LocalPose(l, &u); got != two {
		t.Errorf("no reconciliation after a state: LocalPose = %v, want the server's %v", got, two)
	}
	if got, want := l.Predicted(), netcode.Simulate(&a, start.Pose, fwd, 6*netcode.StepInterval); got.Distance(want) > 1e-9 {
		t.Errorf("reconciled prediction = %v, want %v", got, want)
	}

	// One more step: the shadow moves on from the server's pose, one step behind by four.
	drive(l, &u, &a, fwd, 1)
	want := netcode.Simulate(&a, two, fwd, netcode.StepInterval)
	if got := u.Pose(1); got != want {
		t.Errorf("shadow after a step = %v, want %v", got, want)
	}
	if lag := l.Predicted().Distance(u.Pose(1)); lag < 4*0.25-1e-9 {
		t.Errorf("shadow lags the prediction by %v units, want 4 steps' worth (1.0)", lag)
	}
}

func TestRemotePoseFollowsTheSwitch(t *testing.T) {
	ip := netcode.NewInterpolator(netcode.DefaultInterpConfig())
	rm := &client.Remote{ID: 2, Interp: ip}
	for i, x := range []float64{1, 2, 3} {
		ip.Push(time.Duration(i)*netcode.StepInterval, netcode.State{Tick: uint32(i + 1), Pose: netcode.Pose{X: x}})
	}
	rm.Pose, rm.Bracketed = ip.Sample(125 * time.Millisecond) // 25 ms render time: between 1 and 2

	if got := AllOn().RemotePose(rm); got != rm.Pose {
		t.Errorf("interpolation on: RemotePose = %v, want the sampled %v", got, rm.Pose)
	}
	if got, want := (Techniques{}).RemotePose(rm), (netcode.Pose{X: 3}); got != want {
		t.Errorf("interpolation off: RemotePose = %v, want the newest %v", got, want)
	}
	empty := &client.Remote{Interp: netcode.NewInterpolator(netcode.DefaultInterpConfig())}
	if got := (Techniques{}).RemotePose(empty); got != (netcode.Pose{}) {
		t.Errorf("interpolation off, nothing received: RemotePose = %v, want the zero pose", got)
	}
}

// TestTechniqueLines: the HUD's first lines name every switch and its state, short enough
// for the narrowest panel column (PanelTextWidth's 40 characters), and warn when one is off.
func TestTechniqueLines(t *testing.T) {
	for bits := range 16 {
		tech := Techniques{Prediction: bits&1 != 0, Reconciliation: bits&2 != 0, Interpolation: bits&4 != 0}
		lagComp := bits&8 != 0
		ls := TechniqueLines(tech, lagComp)
		text := ""
		for _, l := range ls {
			if len(l.Text) > 40 {
				t.Errorf("%+v: line %q is longer than 40 characters", tech, l.Text)
			}
			text += l.Text + "\n"
		}
		for _, want := range []string{"prediction " + onOff(tech.Prediction), "interpolation " + onOff(tech.Interpolation), "lag comp " + onOff(lagComp)} {
			if !strings.Contains(text, want) {
				t.Errorf("%+v lag comp %v: lines %q lack %q", tech, lagComp, text, want)
			}
		}
		recon := "reconciliation " + onOff(tech.Reconciliation)
		if tech.Reconciliation && !tech.Prediction {
			recon = "reconciliation waits"
		}
		if !strings.Contains(text, recon) {
			t.Errorf("%+v: lines %q lack %q", tech, text, recon)
		}
		allOn := bits == 15
		if warned := ls[1].Style == Warn || ls[2].Style == Warn; warned == allOn {
			t.Errorf("%+v lag comp %v: warned %v, want a warning exactly when a switch is off", tech, lagComp, warned)
		}
	}
}

// TestOffBanner: the banner names every switch not as a game starts, L and U among them, so
// they show with the HUD hidden; nothing when all are as they start.
func TestOffBanner(t *testing.T) {
	for _, tt := range []struct {
		tech               Techniques
		lagComp, onArrival bool
		want               string
	}{
		{AllOn(), true, false, ""},
		{Techniques{Interpolation: true}, true, false, "PREDICTION + RECONCILIATION OFF"},
		{Techniques{Interpolation: true, Reconciliation: true}, true, false, "PREDICTION + RECONCILIATION OFF"}, // it waits for prediction
		{AllOn(), false, false, "LAG COMP OFF"},
		{AllOn(), true, true, "NO INPUT BUFFER"},
		{Techniques{Prediction: true, Reconciliation: true}, false, true, "INTERPOLATION + LAG COMP OFF  ·  NO INPUT BUFFER"},
	} {
		if got := OffBanner(tt.tech, tt.lagComp, tt.onArrival); got != tt.want {
			t.Errorf("OffBanner(%+v, %v, %v) = %q, want %q", tt.tech, tt.lagComp, tt.onArrival, got, tt.want)
		}
	}
}
