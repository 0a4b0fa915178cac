package netcode

import "math"

// Sine and cosine for Step, written so every platform computes the same bits.
//
// Go's math.Sin and math.Cos are accurate but not bit-identical across architectures: on
// arm64 the compiler fuses their polynomial steps into FMA instructions, which round once
// instead of twice. A client on one architecture would then predict a server on another
// with a residual in the last bit. Here every product is converted with float64() before it
// is added, which the Go spec says forbids fusion, and the algorithm is small enough for a
// client in any language to reproduce (docs/PROTOCOL.md spells it out).
//
// Method: reduce x by the nearest multiple k of pi/2 (pi/2 split in three parts so the
// reduction stays exact for |x| up to a few thousand), evaluate Taylor polynomials on the
// remainder r in [-pi/4, pi/4] — their truncation error there is below 5e-17 — and pick
// the signs and roles from k mod 4. Results are within 2 ulp of the true values.

// pi/2 as the sum of three doubles; the first two end in zero bits, so k times them is exact.
const (
	piOver2Hi  = 1.5707963267341256e+00 // 0x3ff921fb54400000
	piOver2Mid = 6.077100506303966e-11  // 0x3dd0b4611a600000
	piOver2Lo  = 2.0222662487959506e-21 // 0x3ba3198a2e037073, the rest
	twoOverPi  = 2 / math.Pi
)

// Taylor coefficients, each the exact fraction rounded once by the compiler.
const (
	s3, s5, s7, s9, s11, s13, s15 = -1.0 / 6, 1.0 / 120, -1.0 / 5040, 1.0 / 362880,
		-1.0 / 39916800, 1.0 / 6227020800, -1.0 / 1307674368000
	c4, c6, c8, c10, c12, c14, c16 = 1.0 / 24, -1.0 / 720, 1.0 / 40320, -1.0 / 3628800,
		1.0 / 479001600, -1.0 / 87178291200, 1.0 / 20922789888000
)

// sincos returns the sine and cosine of x (radians). x must be finite; Step only passes
// headings in [-pi, pi].
func sincos(x float64) (sin, cos float64) {
	k := math.Floor(float64(x*twoOverPi) + 0.5)
	r := x - float64(k*piOver2Hi)
	r -= float64(k * piOver2Mid)
	r -= float64(k * piOver2Lo)

	z := float64(r * r)
	ps := float64(s15*z) + s13
	ps = float64(ps*z) + s11
	ps = float64(ps*z) + s9
	ps = float64(ps*z) + s7
	ps = float64(ps*z) + s5
	ps = float64(ps*z) + s3
	sr := r + float64(float64(r*z)*ps)

	pc := float64(c16*z) + c14
	pc = float64(pc*z) + c12
	pc = float64(pc*z) + c10
	pc = float64(pc*z) + c8
	pc = float64(pc*z) + c6
	pc = float64(pc*z) + c4
	cr := (1 - float64(z*0.5)) + float64(float64(z*z)*pc)

	switch int64(k) & 3 {
	case 0:
		return sr, cr
	case 1:
		return cr, -sr
	case 2:
		return -sr, -cr
	default:
		return -cr, sr
	}
}
