package wire

import (
	"math"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
)

// fuzzDrive is what FuzzArenaFromProto asks of a tank in an accepted arena: full turns both
// ways, out-of-range and NaN inputs (Step clamps them), and durations that are not whole
// steps.
var fuzzDrive = []netcode.PendingInput{
	{Input: netcode.Input{Turn: 1, Throttle: 1}, Duration: time.Second},
	{Input: netcode.Input{Turn: -0.3, Throttle: -1}, Duration: 370 * time.Millisecond},
	{Input: netcode.Input{Turn: 7, Throttle: 1e300}, Duration: 2 * time.Second},
	{Input: netcode.Input{Turn: math.NaN(), Throttle: math.Inf(-1)}, Duration: 120 * time.Millisecond},
	{Input: netcode.Input{Throttle: 1}, Duration: 3 * time.Second},
}

// FuzzArenaFromProto decodes arbitrary bytes as a wire Arena, as a client does with the one
// in Welcome. ArenaFromProto must never panic, and an arena it accepts must be one a tank can
// drive in: from the contained centre, every simulated pose stays finite and inside the
// walls.
func FuzzArenaFromProto(f *testing.F) {
	add := func(a *tankv1.Arena) {
		b, err := proto.Marshal(a)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	def := netcode.DefaultArena()
	// The default arena: valid.
	add(ArenaToProto(&def))
	// A small field that is one obstacle wall to wall: valid, the tank is stuck but contained.
	add(&tankv1.Arena{Width: 3, Height: 3, TankRadius: 1, Speed: 1, TurnRate: 1,
		Obstacles: []*tankv1.Rect{{Min: &tankv1.Vec2{}, Max: &tankv1.Vec2{X: 3, Y: 3}}}})
	// Extreme but finite sizes and speeds: valid, a step may overshoot to infinity before
	// the walls clamp it.
	add(&tankv1.Arena{Width: math.MaxFloat64, Height: math.MaxFloat64, TankRadius: 1e300,
		Speed: math.MaxFloat64, TurnRate: math.MaxFloat64})
	// Subnormal sizes: valid, movement underflows.
	add(&tankv1.Arena{Width: 4e-323, Height: 4e-323, TankRadius: 5e-324, Speed: 5e-324, TurnRate: 5e-324})
	// Empty message: every field zero, invalid.
	add(&tankv1.Arena{})
	// A negative width, a NaN speed and an infinite turn rate: invalid.
	add(&tankv1.Arena{Width: -40, Height: 25, TankRadius: 0.6, Speed: math.NaN(), TurnRate: math.Inf(1)})
	// A tank wider than the field: invalid.
	add(&tankv1.Arena{Width: 1, Height: 25, TankRadius: 0.6, Speed: 5, TurnRate: 2.5})
	// An obstacle outside the field, one inside out and one with a missing corner (reads as
	// 0, 0): invalid, invalid, valid.
	bad := ArenaToProto(&def)
	bad.Obstacles = []*tankv1.Rect{{Min: &tankv1.Vec2{X: 39, Y: 1}, Max: &tankv1.Vec2{X: 41, Y: 2}}}
	add(bad)
	bad = ArenaToProto(&def)
	bad.Obstacles = []*tankv1.Rect{{Min: &tankv1.Vec2{X: 5, Y: 5}, Max: &tankv1.Vec2{X: 4, Y: 6}}}
	add(bad)
	bad = ArenaToProto(&def)
	bad.Obstacles = []*tankv1.Rect{{Max: &tankv1.Vec2{X: 4, Y: 6}}}
	add(bad)
	// Not an Arena at all: a truncated field.
	f.Add([]byte{0x09, 0x00, 0x00})

	f.Fuzz(func(t *testing.T, data []byte) {
		var m tankv1.Arena
		if err := proto.Unmarshal(data, &m); err != nil {
			t.Skip()
		}
		a, err := ArenaFromProto(&m)
		if err != nil {
			return
		}
		x, y := a.Contain(a.Width/2, a.Height/2)
		p := netcode.Pose{X: x, Y: y}
		if !a.Inside(p) {
			t.Fatalf("arena %+v: contained centre %v is not finite or outside the walls", a, p)
		}
		for _, in := range fuzzDrive {
			next := netcode.Simulate(&a, p, in.Input, in.Duration)
			if !a.Inside(next) {
				t.Fatalf("arena %+v: Simulate(%v, %+v, %v) = %v, not finite or outside [%v, %v] x [%v, %v]",
					a, p, in.Input, in.Duration, next, a.TankRadius, a.Width-a.TankRadius, a.TankRadius, a.Height-a.TankRadius)
			}
			p = next
		}
	})
}
