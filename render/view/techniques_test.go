package view

import (
	"testing"
	"time"

	"tanknet/client"
	"tanknet/netcode"
)

func TestTechniqueToggles(t *testing.T) {
	tests := []struct {
		name   string
		start  Techniques
		toggle func(*Techniques)
		want   Techniques
	}{
		{"prediction off takes reconciliation with it", AllOn(), (*Techniques).TogglePrediction,
			Techniques{Interpolation: true}},
		{"prediction on leaves reconciliation off", Techniques{}, (*Techniques).TogglePrediction,
			Techniques{Prediction: true}},
		{"reconciliation on brings prediction", Techniques{}, (*Techniques).ToggleReconciliation,
			Techniques{Prediction: true, Reconciliation: true}},
		{"reconciliation off keeps prediction", AllOn(), (*Techniques).ToggleReconciliation,
			Techniques{Prediction: true, Interpolation: true}},
		{"interpolation is independent", AllOn(), (*Techniques).ToggleInterpolation,
			Techniques{Prediction: true, Reconciliation: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.start
			tt.toggle(&got)
			if got != tt.want {
				t.Errorf("toggle(%+v) = %+v, want %+v", tt.start, got, tt.want)
			}
		})
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
