package wire

import (
	"math"
	"strings"
	"testing"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
)

func arenaBitsEqual(t *testing.T, got, want netcode.Arena) {
	t.Helper()
	for _, f := range []struct {
		name      string
		got, want float64
	}{
		{"width", got.Width, want.Width}, {"height", got.Height, want.Height},
		{"tank radius", got.TankRadius, want.TankRadius}, {"speed", got.Speed, want.Speed},
		{"turn rate", got.TurnRate, want.TurnRate},
	} {
		if !sameBits(f.got, f.want) {
			t.Errorf("%s = %v (%#x), want %v (%#x)", f.name, f.got, math.Float64bits(f.got), f.want, math.Float64bits(f.want))
		}
	}
	if len(got.Obstacles) != len(want.Obstacles) {
		t.Fatalf("%d obstacles, want %d", len(got.Obstacles), len(want.Obstacles))
	}
	for i, o := range got.Obstacles {
		w := want.Obstacles[i]
		if !sameBits(o.MinX, w.MinX) || !sameBits(o.MinY, w.MinY) || !sameBits(o.MaxX, w.MaxX) || !sameBits(o.MaxY, w.MaxY) {
			t.Errorf("obstacle %d = %+v, want %+v (bit for bit)", i, o, w)
		}
	}
}

func TestArena_RoundTripIsBitIdentical(t *testing.T) {
	odd := netcode.Arena{
		Width:  math.Nextafter(40, 41),
		Height: 0.1 + 0.2, // 0.30000000000000004
		Obstacles: []netcode.Rect{
			{MinX: math.Copysign(0, -1), MinY: 0, MaxX: 1.0 / 3, MaxY: math.SmallestNonzeroFloat64}, // -0 is a valid min
			{MinX: 0.1, MinY: 0.1, MaxX: 0.1, MaxY: 0.2},                                            // zero-width box
			{MinX: 0.3 / 3, MinY: math.Nextafter(0.2, 1), MaxX: 0.3, MaxY: 0.3},
		},
		TankRadius: math.Nextafter(0.1, 0),
		Speed:      math.MaxFloat64,
		TurnRate:   math.SmallestNonzeroFloat64,
	}
	for name, a := range map[string]netcode.Arena{
		"default":      netcode.DefaultArena(),
		"no obstacles": {Width: 10, Height: 10, TankRadius: 1, Speed: 1, TurnRate: 1},
		"odd floats":   odd,
	} {
		t.Run(name, func(t *testing.T) {
			if err := a.Validate(); err != nil {
				t.Fatalf("test arena invalid: %v", err)
			}
			m := ArenaToProto(&a)
			got, err := ArenaFromProto(throughWire(t, m))
			if err != nil {
				t.Fatalf("ArenaFromProto: %v", err)
			}
			arenaBitsEqual(t, got, a)
			// And directly, without the wire in between.
			direct, err := ArenaFromProto(m)
			if err != nil {
				t.Fatalf("ArenaFromProto (direct): %v", err)
			}
			arenaBitsEqual(t, direct, a)
		})
	}
}

func TestArenaFromProto_RejectsInvalid(t *testing.T) {
	valid := func() *tankv1.Arena { a := netcode.DefaultArena(); return ArenaToProto(&a) }
	with := func(f func(*tankv1.Arena)) *tankv1.Arena { m := valid(); f(m); return m }
	rect := func(x0, y0, x1, y1 float64) *tankv1.Rect {
		return &tankv1.Rect{Min: &tankv1.Vec2{X: x0, Y: y0}, Max: &tankv1.Vec2{X: x1, Y: y1}}
	}
	for _, tc := range []struct {
		name string
		m    *tankv1.Arena
		want string // substring of the error
	}{
		{"nil", nil, "missing"},
		{"empty", &tankv1.Arena{}, "width"},
		{"zero height", with(func(m *tankv1.Arena) { m.Height = 0 }), "height"},
		{"negative width", with(func(m *tankv1.Arena) { m.Width = -40 }), "width"},
		{"infinite width", with(func(m *tankv1.Arena) { m.Width = math.Inf(1) }), "width"},
		{"NaN speed", with(func(m *tankv1.Arena) { m.Speed = math.NaN() }), "speed"},
		{"zero turn rate", with(func(m *tankv1.Arena) { m.TurnRate = 0 }), "turn rate"},
		{"negative radius", with(func(m *tankv1.Arena) { m.TankRadius = -0.6 }), "radius"},
		{"tank wider than the arena", with(func(m *tankv1.Arena) { m.TankRadius = 12.5 }), "too small"},
		{"obstacle min > max", with(func(m *tankv1.Arena) { m.Obstacles = append(m.Obstacles, rect(5, 5, 4, 6)) }), "obstacle 5"},
		{"obstacle outside", with(func(m *tankv1.Arena) { m.Obstacles = []*tankv1.Rect{rect(39, 1, 41, 2)} }), "obstacle 0"},
		{"obstacle negative", with(func(m *tankv1.Arena) { m.Obstacles = []*tankv1.Rect{rect(-1, 1, 2, 2)} }), "obstacle 0"},
		{"obstacle NaN", with(func(m *tankv1.Arena) { m.Obstacles = []*tankv1.Rect{rect(math.NaN(), 1, 2, 2)} }), "obstacle 0"},
		{"obstacle without max", with(func(m *tankv1.Arena) {
			m.Obstacles = []*tankv1.Rect{{Min: &tankv1.Vec2{X: 1, Y: 1}}} // max reads as (0, 0) < min
		}), "obstacle 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := ArenaFromProto(tc.m)
			if err == nil {
				t.Fatalf("ArenaFromProto accepted %v as %+v", tc.m, a)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not mention %q", err, tc.want)
			}
			if a.Width != 0 || a.Obstacles != nil {
				t.Errorf("ArenaFromProto returned %+v with its error, want the zero Arena", a)
			}
		})
	}
}
