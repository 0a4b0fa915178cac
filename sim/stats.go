package sim

import (
	"math"
	"math/rand/v2"
	"slices"
)

// percentile returns the q-th quantile (q in [0, 1]) of xs by linear interpolation between
// the closest ranks, the way numpy's default does; NaN for no values. xs is not modified.
func percentile(xs []float64, q float64) float64 {
	if len(xs) == 0 || !(q >= 0 && q <= 1) {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return sortedPercentile(s, q)
}

// sortedPercentile is percentile for xs already in increasing order.
func sortedPercentile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	pos := q * float64(len(xs)-1)
	lo := int(math.Floor(pos))
	hi := min(lo+1, len(xs)-1)
	return xs[lo] + (pos-float64(lo))*(xs[hi]-xs[lo])
}

// rms returns the root mean square of xs, NaN for no values.
func rms(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	var sum float64
	for _, x := range xs {
		sum += x * x
	}
	return math.Sqrt(sum / float64(len(xs)))
}

// mean returns the arithmetic mean of xs, NaN for no values.
func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

// Quantiles is a distribution's median, 99th percentile and maximum, in the unit its JSON
// key names.
type Quantiles struct {
	P50 float64 `json:"p50"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
}

// quantiles summarizes xs, or returns nil when there are none.
func quantiles(xs []float64) *Quantiles {
	if len(xs) == 0 {
		return nil
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return &Quantiles{P50: sortedPercentile(s, 0.5), P99: sortedPercentile(s, 0.99), Max: s[len(s)-1]}
}

// ErrorSummary is the size of an error: root mean square, 99th percentile and maximum.
type ErrorSummary struct {
	RMS float64 `json:"rms"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
}

// errorSummary summarizes xs, or returns nil when there are none.
func errorSummary(xs []float64) *ErrorSummary {
	if len(xs) == 0 {
		return nil
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return &ErrorSummary{RMS: rms(s), P99: sortedPercentile(s, 0.99), Max: s[len(s)-1]}
}

// reservoir keeps a uniform random sample of at most limit of the values added to it
// (Vitter's algorithm R), so a long run's memory stays bounded while short runs keep every
// value. Its random choices come from a seeded source: stream picks one of a seed's
// independent streams, so the pools of one bot and of the next seed never share one.
type reservoir[T any] struct {
	items []T
	seen  int
	limit int
	rng   *rand.Rand
}

func newReservoir[T any](limit int, seed, stream uint64) *reservoir[T] {
	return &reservoir[T]{limit: limit, rng: rand.New(rand.NewPCG(seed, 0x5a3d<<32|stream))}
}

// add offers x.
func (r *reservoir[T]) add(x T) {
	r.seen++
	if len(r.items) < r.limit {
		r.items = append(r.items, x)
		return
	}
	if j := r.rng.IntN(r.seen); j < r.limit {
		r.items[j] = x
	}
}

// sampled reports whether values were left out.
func (r *reservoir[T]) sampled() bool { return r.seen > len(r.items) }
