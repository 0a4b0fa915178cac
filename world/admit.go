package world

import (
	"fmt"
	"time"

	"tanknet/netcode"
)

// verdict is what the world does with one received MoveInput.
type verdict int

const (
	admitted verdict = iota // queue it for simulation
	stale                   // at or below a tick already queued or applied: drop it, count it
	refused                 // a protocol violation: the client is dropped
)

// admit checks one MoveInput from a client whose newest queued-or-applied tick is last and
// whose last applied tick is ack, allowing it to run lead ticks ahead of ack (the
// configured lead, plus the ticks a paused server owes: see lead.go). It returns the input
// to queue (turn and throttle clamped), a verdict, and for refused inputs the rule broken
// (as the server's counters name it) and the reason. It never panics on any input.
func admit(in netcode.PendingInput, last, ack, lead uint32, cfg *Config) (_ netcode.PendingInput, _ verdict, rule, reason string) {
	if err := in.Input.Validate(); err != nil {
		return in, refused, RuleNotFinite, fmt.Sprintf("move tick %d: turn %v / throttle %v is not a finite number", in.Tick, in.Input.Turn, in.Input.Throttle)
	}
	if in.Duration < time.Millisecond || in.Duration > cfg.MaxInputDuration {
		return in, refused, RuleDuration, fmt.Sprintf("move tick %d: duration %v outside [1ms, %v]", in.Tick, in.Duration, cfg.MaxInputDuration)
	}
	if in.Tick <= last {
		return in, stale, "", ""
	}
	if uint64(in.Tick) > uint64(ack)+uint64(lead) {
		return in, refused, RuleLead, fmt.Sprintf("move tick %d is more than %d ahead of the last applied tick %d", in.Tick, lead, ack)
	}
	in.Input = in.Input.Clamp()
	return in, admitted, "", ""
}

// The input rules a MoveInput can break, as the server's counters name them.
const (
	RuleNotFinite = "not_finite"    // turn or throttle NaN or infinite
	RuleDuration  = "duration"      // duration outside [1 ms, MaxInputDuration]
	RuleLead      = "too_far_ahead" // tick beyond the input lead past the last applied one
)
