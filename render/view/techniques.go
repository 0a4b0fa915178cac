package view

import (
	"tanknet/client"
	"tanknet/netcode"
)

// Techniques are the teaching switches of Gabriel Gambetta's live demo: each can be turned
// off at run time to show what it hides. Reconciliation needs prediction, so turning
// reconciliation on turns prediction on, and turning prediction off turns reconciliation
// off. The zero value has everything off; AllOn is how a game starts.
//
// The netcode keeps running with every technique on whatever the switches say; the switches
// only choose which of its poses is drawn (see LocalPose and RemotePose).
type Techniques struct {
	Prediction     bool
	Reconciliation bool
	Interpolation  bool
}

// AllOn returns Techniques with every switch on.
func AllOn() Techniques {
	return Techniques{Prediction: true, Reconciliation: true, Interpolation: true}
}

// TogglePrediction flips prediction; turning it off also turns reconciliation off.
func (t *Techniques) TogglePrediction() {
	t.Prediction = !t.Prediction
	if !t.Prediction {
		t.Reconciliation = false
	}
}

// ToggleReconciliation flips reconciliation; turning it on also turns prediction on.
func (t *Techniques) ToggleReconciliation() {
	t.Reconciliation = !t.Reconciliation
	if t.Reconciliation {
		t.Prediction = true
	}
}

// ToggleInterpolation flips interpolation.
func (t *Techniques) ToggleInterpolation() { t.Interpolation = !t.Interpolation }

// LocalPose returns where to draw the player's own tank:
//
//   - prediction off: the last state the server sent (Baseline), so the tank answers the
//     keys a round trip late;
//   - prediction without reconciliation: the Unreconciled shadow, which restarts from each
//     server state and loses the inputs still in flight, so it rubber-bands;
//   - both on: the netcode's smoothed, corrected Visible pose.
func (t Techniques) LocalPose(l *netcode.Local, u *Unreconciled) netcode.Pose {
	switch {
	case !t.Prediction:
		return l.Baseline().Pose
	case !t.Reconciliation && u != nil:
		return u.Pose(l.Alpha())
	}
	return l.Visible()
}

// RemotePose returns where to draw another player's tank: the interpolated pose sampled by
// the last client.Game.Update, or with interpolation off the newest state received, which
// moves only when a snapshot arrives (20 times a second at best).
func (t Techniques) RemotePose(r *client.Remote) netcode.Pose {
	if !t.Interpolation {
		if s, ok := r.Interp.Newest(); ok {
			return s.Pose
		}
	}
	return r.Pose
}

// String lists the switches for the HUD, e.g. "prediction on, reconciliation off, ...".
func (t Techniques) String() string {
	return "prediction " + onOff(t.Prediction) + ", reconciliation " + onOff(t.Reconciliation) +
		", interpolation " + onOff(t.Interpolation)
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
