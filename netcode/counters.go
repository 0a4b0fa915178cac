package netcode

import "time"

// LocalCounters is what the local tank's netcode has done since it was made, for a HUD or a
// measurement report. Counts only grow; Pending is the current depth.
type LocalCounters struct {
	Steps        int // prediction steps run by Predict
	Pushes       int // prediction steps whose input carried a contact push (ContactPredicted)
	DroppedSteps int // due steps the clock's catch-up cap discarded

	Reconciliations  int // accepted own states
	StaleRejects     int // own states ignored because their tick was not newer
	Pruned           int // pending inputs removed by acknowledgement
	PendingDropped   int // oldest pending inputs discarded because the buffer was full
	ReplayedSubsteps int // Step calls made while replaying after reconciliations
	Pending          int // unacknowledged inputs right now

	// Residual is how far the prediction for the newest pending tick moved when a state was
	// reconciled: position in units, heading in radians (absolute, shortest arc). With no
	// contact resolved by the server (contact off or predicted) it is exactly zero every time.
	LastResidual, MaxResidual           float64
	LastResidualAngle, MaxResidualAngle float64
	NonZeroResiduals                    int // reconciliations with any residual at all

	CorrectionsStarted   int // a residual began smoothing with no correction active
	CorrectionsFolded    int // a residual replaced an active correction
	CorrectionsConverged int // a correction reached zero
	CorrectionsEscalated int // an active correction ended in a snap (also counted in Snaps)
	Snaps                int // the visible pose jumped to the predicted one
}

// InterpCounters is what one remote tank's interpolator has done since it was made.
// Delay, Jitter and Depth are current values; the rest only grow.
type InterpCounters struct {
	Samples      int // accepted states
	StaleRejects int // states ignored because their tick was not newer than the newest
	Overflows    int // oldest samples dropped because the buffer was full
	Frames       int // Sample calls
	Holds        int // frames with no bracketing pair: the newest (or oldest) sample was shown, or none yet
	Teleports    int // frames that showed the later sample of a pair at once: it was pushed with PushTeleport

	Delay  time.Duration // current render delay (see Interpolator.Delay)
	Jitter time.Duration // arrival jitter estimate (server timeline only)
	Depth  int           // samples buffered right now
}
