package netcode

import "testing"

// TestLocal_KeepsEveryInputTheServerMayStillApply: the server accepts inputs up to its max
// input lead (120 ticks at the default idle timeout) past the last one it applied, and its
// acknowledgement of them takes the downlink's latency to come back (a second: 20 more
// ticks). A client whose server fell that far behind must still hold every input it sent,
// so the state that finally arrives replays exactly: no input forgotten, no residual.
func TestLocal_KeepsEveryInputTheServerMayStillApply(t *testing.T) {
	a := DefaultArena()
	start := State{Pose: Pose{X: a.Width / 2, Y: a.Height / 2}}
	l := NewLocal(&a, DefaultLocalConfig(), start)
	const lead, inFlight = DefaultInputLead, 20 // what the server may queue, and the acks' second on the way back
	server := start.Pose
	var sent []PendingInput
	for i := range lead + inFlight {
		in := Input{Turn: 0.4 * float64(i%3-1), Throttle: 1}
		sent = append(sent, l.Predict(in))
	}
	// The server has applied the first 5, and that is the state that arrives.
	for _, p := range sent[:5] {
		server = Simulate(&a, server, p.Input, p.Duration)
	}
	if !l.Reconcile(State{Tick: 1, Pose: server, Ack: sent[4].Tick}) {
		t.Fatal("the state was refused")
	}
	c := l.Counters()
	if c.PendingDropped != 0 || c.NonZeroResiduals != 0 {
		t.Errorf("after %d unacknowledged inputs: %d forgotten, %d residuals (max %v); want none: the server may still apply every one",
			lead+inFlight, c.PendingDropped, c.NonZeroResiduals, c.MaxResidual)
	}
}
