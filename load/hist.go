package load

import (
	"math/bits"
	"time"
)

// subBuckets is how many buckets each power of two of microseconds is split into: 64 keeps
// every recorded value within 1/64 (1.6%) of its bucket's low edge, HdrHistogram's two
// significant digits, in a few kilobytes.
const subBuckets = 64

// histBuckets covers 0 to 2^40 µs (12 days) and more (clamped to the last bucket).
const histBuckets = (40 - 5) * subBuckets

// Histogram counts durations in log-linear buckets of microseconds, exact below 64 µs. Its
// zero value is empty and ready; it is not safe for concurrent use (each driver keeps its
// own and Merge joins them).
type Histogram struct {
	counts [histBuckets]uint64
	total  uint64
	max    time.Duration
}

// bucketOf returns the bucket of us microseconds.
func bucketOf(us uint64) int {
	if us < subBuckets {
		return int(us)
	}
	exp := bits.Len64(us) - 7 // us >> exp lies in [64, 128)
	i := (exp+1)*subBuckets + int(us>>exp) - subBuckets
	return min(i, histBuckets-1)
}

// lowOf returns the smallest value, in µs, of bucket i.
func lowOf(i int) uint64 {
	if i < subBuckets {
		return uint64(i)
	}
	exp := i/subBuckets - 1
	return uint64(i%subBuckets+subBuckets) << exp
}

// Record counts d; a negative d counts as 0.
func (h *Histogram) Record(d time.Duration) {
	d = max(d, 0)
	h.counts[bucketOf(uint64(d/time.Microsecond))]++
	h.total++
	h.max = max(h.max, d)
}

// Count returns how many durations were recorded.
func (h *Histogram) Count() uint64 { return h.total }

// Max returns the largest duration recorded, 0 when empty.
func (h *Histogram) Max() time.Duration { return h.max }

// Quantile returns the low edge of the bucket holding the q-quantile (0 < q <= 1), or 0 when
// the histogram is empty; q 1 returns the exact maximum.
func (h *Histogram) Quantile(q float64) time.Duration {
	if h.total == 0 {
		return 0
	}
	if q >= 1 {
		return h.max
	}
	rank := uint64(q*float64(h.total) + 0.5)
	rank = max(rank, 1)
	var seen uint64
	for i, c := range h.counts {
		if seen += c; seen >= rank {
			return time.Duration(lowOf(i)) * time.Microsecond
		}
	}
	return h.max
}

// Merge adds every count of o to h.
func (h *Histogram) Merge(o *Histogram) {
	for i, c := range o.counts {
		h.counts[i] += c
	}
	h.total += o.total
	h.max = max(h.max, o.max)
}
