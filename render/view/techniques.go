package view

import (
	"strings"

	"tanknet/client"
	"tanknet/netcode"
)

// Techniques are the teaching switches of Gabriel Gambetta's live demo: each can be turned
// off at run time to show what it hides. Each key flips its own switch and nothing else, so
// pressing one twice always restores the state. Reconciliation replays predicted inputs, so
// it works only while prediction is on: Reconciling says whether it does, and the HUD shows a
// reconciliation switch that is on but waiting for prediction. The zero value has
// everything off; AllOn is how a game starts.
//
// The netcode keeps running with every technique on whatever the switches say; the switches
// only choose which of its poses is drawn (see LocalPose and RemotePose).
type Techniques struct {
	Prediction     bool
	Reconciliation bool // the switch; see Reconciling for whether it acts
	Interpolation  bool
}

// AllOn returns Techniques with every switch on.
func AllOn() Techniques {
	return Techniques{Prediction: true, Reconciliation: true, Interpolation: true}
}

// TogglePrediction flips prediction. With it off, reconciliation waits (Reconciling).
func (t *Techniques) TogglePrediction() { t.Prediction = !t.Prediction }

// ToggleReconciliation flips reconciliation's switch.
func (t *Techniques) ToggleReconciliation() { t.Reconciliation = !t.Reconciliation }

// ToggleInterpolation flips interpolation.
func (t *Techniques) ToggleInterpolation() { t.Interpolation = !t.Interpolation }

// Reconciling reports whether reconciliation acts: its switch is on and so is prediction.
func (t Techniques) Reconciling() bool { return t.Prediction && t.Reconciliation }

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
	case !t.Reconciling() && u != nil:
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
	return "prediction " + onOff(t.Prediction) + ", reconciliation " + t.reconciliationState() +
		", interpolation " + onOff(t.Interpolation)
}

// reconciliationState is "on", "off", or "on, waits for prediction" when its switch is on
// but prediction is off.
func (t Techniques) reconciliationState() string {
	if t.Reconciliation && !t.Prediction {
		return "on, waits for prediction"
	}
	return onOff(t.Reconciliation)
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// OffBanner is the banner over a pane naming every switch that is not as a game starts:
// prediction, reconciliation (also while it waits for prediction), interpolation
// and lag compensation off, and inputs applied on arrival instead of from the server's
// buffer; "" when all are as they start.
func OffBanner(t Techniques, lagComp, onArrival bool) string {
	var off []string
	for _, s := range []struct {
		name string
		on   bool
	}{{"PREDICTION", t.Prediction}, {"RECONCILIATION", t.Reconciling()}, {"INTERPOLATION", t.Interpolation}, {"LAG COMP", lagComp}} {
		if !s.on {
			off = append(off, s.name)
		}
	}
	var parts []string
	if len(off) > 0 {
		parts = append(parts, strings.Join(off, " + ")+" OFF")
	}
	if onArrival {
		parts = append(parts, "NO INPUT BUFFER")
	}
	return strings.Join(parts, "  ·  ")
}
