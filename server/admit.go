package server

import (
	"fmt"
	"time"

	"tanknet/netcode"
)

// verdict is what the server does with one received MoveInput.
type verdict int

const (
	admitted verdict = iota // queue it for simulation
	stale                   // at or below a tick already queued or applied: drop it, count it
	refused                 // a protocol violation: drop the client
)

// admit checks one MoveInput from a client whose newest queued-or-applied tick is last and
// whose last applied tick is ack, allowing it to run lead ticks ahead of ack (the
// configured lead, plus the ticks a paused server owes: see world.leadGrace). It returns the input to queue (turn and throttle clamped),
// a verdict, and for refused inputs the rule broken (a Stats.InputsRefused label) and the
// reason. It never panics on any input.
func admit(in netcode.PendingInput, last, ack, lead uint32, cfg *Config) (_ netcode.PendingInput, _ verdict, rule, reason string) {
	if err := in.Input.Validate(); err != nil {
		return in, refused, ruleNotFinite, fmt.Sprintf("move tick %d: turn %v / throttle %v is not a finite number", in.Tick, in.Input.Turn, in.Input.Throttle)
	}
	if in.Duration < time.Millisecond || in.Duration > cfg.MaxInputDuration {
		return in, refused, ruleDuration, fmt.Sprintf("move tick %d: duration %v outside [1ms, %v]", in.Tick, in.Duration, cfg.MaxInputDuration)
	}
	if in.Tick <= last {
		return in, stale, "", ""
	}
	if uint64(in.Tick) > uint64(ack)+uint64(lead) {
		return in, refused, ruleLead, fmt.Sprintf("move tick %d is more than %d ahead of the last applied tick %d", in.Tick, lead, ack)
	}
	in.Input = in.Input.Clamp()
	return in, admitted, "", ""
}
