package netcode

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSincos_CloseToMath checks accuracy against the standard library over the headings
// Step uses and somewhat beyond.
func TestSincos_CloseToMath(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	check := func(x float64) {
		s, c := sincos(x)
		if ds, dc := math.Abs(s-math.Sin(x)), math.Abs(c-math.Cos(x)); ds > 4.5e-16 || dc > 4.5e-16 {
			t.Fatalf("sincos(%v) = (%v, %v), math says (%v, %v): off by (%g, %g)", x, s, c, math.Sin(x), math.Cos(x), ds, dc)
		}
	}
	for _, x := range []float64{0, math.Pi, -math.Pi, math.Pi / 2, -math.Pi / 2, math.Pi / 4, 1e-300, -0.0, 3 * math.Pi / 4, 100} {
		check(x)
	}
	for range 200000 {
		check((rng.Float64()*2 - 1) * 4 * math.Pi)
	}
}

// TestSincos_Golden pins exact bits. Every platform must produce these, or clients and
// servers built for different architectures stop agreeing to the bit; a change here is a
// protocol change (docs/PROTOCOL.md).
func TestSincos_Golden(t *testing.T) {
	tests := []struct {
		x, sin, cos uint64 // IEEE-754 bit patterns
	}{
		{0x3ff0000000000000, 0x3feaed548f090cee, 0x3fe14a280fb5068c}, // x = 1
		{0x400921fb54442d18, 0x3ca1a62633145c07, 0xbff0000000000000}, // x = pi: the correctly rounded sin, one bit from math.Sin's
		{0xbfe0000000000000, 0xbfdeaee8744b05f0, 0x3fec1528065b7d50}, // x = -0.5
		{0x4002d97c7f3321d2, 0x3fe6a09e667f3bcd, 0xbfe6a09e667f3bcc}, // x = 3pi/4
		{0x3fc3333333333333, 0x3fc320c9e9dfed22, 0x3fefa4033e5ee938}, // x = 0.15
	}
	for _, tt := range tests {
		x := math.Float64frombits(tt.x)
		s, c := sincos(x)
		if math.Float64bits(s) != tt.sin || math.Float64bits(c) != tt.cos {
			t.Errorf("sincos(%v) bits = (%#x, %#x), want (%#x, %#x)", x, math.Float64bits(s), math.Float64bits(c), tt.sin, tt.cos)
		}
	}
}

func BenchmarkSincos(b *testing.B) {
	var s, c float64
	for i := range b.N {
		s, c = sincos(float64(i%628) / 100)
	}
	_, _ = s, c
}
