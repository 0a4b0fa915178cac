package load

import (
	"testing"
	"time"
)

// TestBucketOf_LowEdgeRoundTrips: every bucket's low edge falls in that bucket, and a value
// is never more than 1/64 above its bucket's low edge.
func TestBucketOf_LowEdgeRoundTrips(t *testing.T) {
	for i := range histBuckets {
		if got := bucketOf(lowOf(i)); got != i {
			t.Fatalf("bucketOf(lowOf(%d) = %d) = %d", i, lowOf(i), got)
		}
	}
	for _, us := range []uint64{0, 1, 63, 64, 65, 127, 128, 129, 1000, 49_999, 1 << 30} {
		low := lowOf(bucketOf(us))
		if low > us || float64(us-low) > float64(us)/subBuckets {
			t.Errorf("%d µs lands in a bucket starting at %d µs", us, low)
		}
	}
}

// TestHistogram_Quantiles: quantiles of a known spread, merging, and the empty case.
func TestHistogram_Quantiles(t *testing.T) {
	var a, b Histogram
	if a.Quantile(0.5) != 0 {
		t.Fatal("empty histogram has a median")
	}
	for i := 1; i <= 50; i++ {
		a.Record(time.Duration(i) * time.Millisecond)
		b.Record(time.Duration(50+i) * time.Millisecond)
	}
	a.Merge(&b)
	tests := []struct {
		q    float64
		want time.Duration
	}{
		{0.5, 50 * time.Millisecond},
		{0.99, 99 * time.Millisecond},
		{1, 100 * time.Millisecond},
	}
	for _, tc := range tests {
		got := a.Quantile(tc.q)
		if got > tc.want || float64(tc.want-got) > float64(tc.want)/subBuckets {
			t.Errorf("Quantile(%v) = %v, want %v within 1/64 below", tc.q, got, tc.want)
		}
	}
	if a.Count() != 100 || a.Max() != 100*time.Millisecond {
		t.Errorf("Count, Max = %d, %v, want 100, 100ms", a.Count(), a.Max())
	}
	a.Record(-time.Second)
	if a.Quantile(0.001) != 0 {
		t.Errorf("a negative duration is not counted as 0")
	}
}
