package world

import (
	"math"
	"strings"
	"testing"
	"time"

	"tanknet/netcode"
)

func TestAdmit(t *testing.T) {
	cfg := Config{InputLead: 120, MaxInputDuration: 200 * time.Millisecond}
	in := func(tick uint32, turn, throttle float64, ms int) netcode.PendingInput {
		return netcode.PendingInput{Tick: tick, Input: netcode.Input{Turn: turn, Throttle: throttle}, Duration: time.Duration(ms) * time.Millisecond}
	}
	tests := []struct {
		name      string
		in        netcode.PendingInput
		last, ack uint32
		want      verdict
		wantIn    netcode.Input
		reason    string
	}{
		{"next tick", in(6, 0.5, 1, 50), 5, 5, admitted, netcode.Input{Turn: 0.5, Throttle: 1}, ""},
		{"gap in ticks is fine", in(9, 0, 1, 50), 5, 5, admitted, netcode.Input{Throttle: 1}, ""},
		{"turn clamped", in(6, 5, -3, 50), 5, 5, admitted, netcode.Input{Turn: 1, Throttle: -1}, ""},
		{"duplicate tick is stale", in(5, 0, 1, 50), 5, 4, stale, netcode.Input{}, ""},
		{"old tick is stale", in(2, 0, 1, 50), 5, 5, stale, netcode.Input{}, ""},
		{"NaN turn", in(6, math.NaN(), 1, 50), 5, 5, refused, netcode.Input{}, "not a finite number"},
		{"infinite throttle", in(6, 0, math.Inf(-1), 50), 5, 5, refused, netcode.Input{}, "not a finite number"},
		{"zero duration", in(6, 0, 1, 0), 5, 5, refused, netcode.Input{}, "duration"},
		{"duration too long", in(6, 0, 1, 201), 5, 5, refused, netcode.Input{}, "duration"},
		{"longest duration", in(6, 0, 1, 200), 5, 5, admitted, netcode.Input{Throttle: 1}, ""},
		{"at the lead limit", in(125, 0, 1, 50), 5, 5, admitted, netcode.Input{Throttle: 1}, ""},
		{"beyond the lead limit", in(126, 0, 1, 50), 5, 5, refused, netcode.Input{}, "ahead"},
		{"max uint32 tick", in(math.MaxUint32, 0, 1, 50), 5, 5, refused, netcode.Input{}, "ahead"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, v, _, reason := admit(tt.in, tt.last, tt.ack, cfg.InputLead, &cfg)
			if v != tt.want {
				t.Fatalf("admit(%+v, last %d, ack %d) verdict = %v, want %v (reason %q)", tt.in, tt.last, tt.ack, v, tt.want, reason)
			}
			if v == admitted && got.Input != tt.wantIn {
				t.Errorf("admit(%+v) input = %+v, want %+v", tt.in, got.Input, tt.wantIn)
			}
			if !strings.Contains(reason, tt.reason) || (tt.reason == "") != (reason == "") {
				t.Errorf("admit(%+v) reason = %q, want it to mention %q", tt.in, reason, tt.reason)
			}
		})
	}
}
