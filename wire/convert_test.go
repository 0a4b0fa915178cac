package wire

import (
	"math"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
)

// throughWire marshals m and unmarshals it into a fresh message, as the network would.
func throughWire[M proto.Message](t *testing.T, m M) M {
	t.Helper()
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	out := m.ProtoReflect().New().Interface().(M)
	if err := proto.Unmarshal(b, out); err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	return out
}

// sameBits reports whether a and b are the same float64 bit pattern (so -0 != +0 and a NaN
// equals only the identical NaN).
func sameBits(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

// TestState_RoundTrip: a pose travels as the nearest wire-grid pose, and a pose already on
// the grid (every pose the server stores) arrives bit for bit.
func TestState_RoundTrip(t *testing.T) {
	for name, tc := range map[string]struct {
		id uint32
		s  netcode.State
	}{
		"spawn":            {1, netcode.State{Tick: 1, Pose: netcode.Pose{X: 4, Y: 4}}},
		"moving":           {7, netcode.State{Tick: 1234, Pose: netcode.Pose{X: 0.1 + 0.2, Y: 24.4, Heading: -math.Pi}, Ack: 1230}},
		"max ids":          {math.MaxUint32, netcode.State{Tick: math.MaxUint32, Pose: netcode.Pose{X: math.Nextafter(39.4, 0), Y: 0.6, Heading: math.Pi}, Ack: math.MaxUint32}},
		"negative zero":    {2, netcode.State{Tick: 3, Pose: netcode.Pose{X: 1, Y: 1, Heading: math.Copysign(0, -1)}, Ack: 2}},
		"tiny and subnorm": {3, netcode.State{Tick: 4, Pose: netcode.Pose{X: math.SmallestNonzeroFloat64, Y: 1e-300, Heading: 1e-17}, Ack: 0}},
	} {
		t.Run(name, func(t *testing.T) {
			m := throughWire(t, StateToProto(tc.id, tc.s))
			if m.GetPlayerId() != tc.id {
				t.Errorf("player id %d, want %d", m.GetPlayerId(), tc.id)
			}
			got := StateFromProto(m)
			if got.Tick != tc.s.Tick || got.Ack != tc.s.Ack {
				t.Errorf("tick/ack = %d/%d, want %d/%d", got.Tick, got.Ack, tc.s.Tick, tc.s.Ack)
			}
			want := netcode.ToGrid(tc.s.Pose).Pose()
			if !sameBits(got.Pose.X, want.X) || !sameBits(got.Pose.Y, want.Y) || !sameBits(got.Pose.Heading, want.Heading) {
				t.Errorf("pose = %#v, want the grid pose %#v bit for bit", got.Pose, want)
			}
			if again := StateFromProto(throughWire(t, StateToProto(tc.id, got))); again.Pose != got.Pose {
				t.Errorf("grid pose %#v came back as %#v, want it unchanged", got.Pose, again.Pose)
			}
		})
	}
}

func TestStateFromProto_MissingFieldsReadAsZero(t *testing.T) {
	for name, m := range map[string]*tankv1.PlayerState{
		"nil":         nil,
		"empty":       {},
		"no position": {PlayerId: 1, Tick: 5, GridHeading: 100, AcknowledgedMoveTick: 3},
	} {
		t.Run(name, func(t *testing.T) {
			got := StateFromProto(m)
			if got.Pose.X != 0 || got.Pose.Y != 0 {
				t.Errorf("position = (%v, %v), want (0, 0)", got.Pose.X, got.Pose.Y)
			}
			if got.Tick != m.GetTick() || got.Ack != m.GetAcknowledgedMoveTick() || got.Pose.Heading != float64(m.GetGridHeading())*netcode.HeadingUnit {
				t.Errorf("StateFromProto(%v) = %+v", m, got)
			}
		})
	}
}

func TestMove_RoundTrip(t *testing.T) {
	for name, p := range map[string]netcode.PendingInput{
		"normal step":  {Tick: 1, Input: netcode.Input{Turn: 1, Throttle: 1}, Duration: 50 * time.Millisecond},
		"shortest":     {Tick: 2, Input: netcode.Input{Turn: -0.25, Throttle: 0.1 + 0.2}, Duration: time.Millisecond},
		"longest":      {Tick: math.MaxUint32, Input: netcode.Input{Turn: -1, Throttle: -1}, Duration: 200 * time.Millisecond},
		"remainder":    {Tick: 9, Input: netcode.Input{Turn: math.Nextafter(0, 1)}, Duration: 120 * time.Millisecond},
		"out of range": {Tick: 3, Input: netcode.Input{Turn: 7, Throttle: -1e300}, Duration: 50 * time.Millisecond},
	} {
		t.Run(name, func(t *testing.T) {
			m := throughWire(t, ClientMessageToProto(Move(p)).GetMoveInput())
			if want := uint32(p.Duration / time.Millisecond); m.GetDurationMs() != want {
				t.Errorf("duration_ms = %d, want %d", m.GetDurationMs(), want)
			}
			got := MoveFromProto(m)
			if got.Tick != p.Tick || got.Duration != p.Duration {
				t.Errorf("tick/duration = %d/%v, want %d/%v", got.Tick, got.Duration, p.Tick, p.Duration)
			}
			if !sameBits(got.Input.Turn, p.Input.Turn) || !sameBits(got.Input.Throttle, p.Input.Throttle) {
				t.Errorf("input = %+v, want %+v bit for bit", got.Input, p.Input)
			}
		})
	}
}

func TestMove_DurationUnits(t *testing.T) {
	// The wire carries whole milliseconds; finer durations are truncated toward zero.
	for _, tc := range []struct {
		d  time.Duration
		ms uint32
	}{
		{50 * time.Millisecond, 50},
		{time.Millisecond, 1},
		{50*time.Millisecond + 999*time.Microsecond, 50},
		{999 * time.Microsecond, 0},
	} {
		if got := ClientMessageToProto(Move{Duration: tc.d}).GetMoveInput().GetDurationMs(); got != tc.ms {
			t.Errorf("Move{Duration: %v}.duration_ms = %d, want %d", tc.d, got, tc.ms)
		}
	}
	for _, ms := range []uint32{0, 1, 50, 200, math.MaxUint32} {
		if got := MoveFromProto(&tankv1.MoveInput{DurationMs: ms}).Duration; got != time.Duration(ms)*time.Millisecond {
			t.Errorf("MoveFromProto(duration_ms %d).Duration = %v", ms, got)
		}
	}
	if got := MoveFromProto(nil); got != (netcode.PendingInput{}) {
		t.Errorf("MoveFromProto(nil) = %+v, want zero", got)
	}
}
