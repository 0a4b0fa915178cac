package sim

import (
	"math"
	"testing"
)

func TestPercentile(t *testing.T) {
	xs := []float64{5, 1, 4, 2, 3} // unsorted on purpose: percentile must not care, nor sort xs
	tests := []struct {
		q, want float64
	}{
		{0, 1}, {0.25, 2}, {0.5, 3}, {0.9, 4.6}, {0.99, 4.96}, {1, 5},
	}
	for _, tt := range tests {
		if got := percentile(xs, tt.q); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("percentile(%v, %v) = %v, want %v", xs, tt.q, got, tt.want)
		}
	}
	if xs[0] != 5 {
		t.Errorf("percentile sorted its input: %v", xs)
	}
	for _, bad := range []struct {
		xs []float64
		q  float64
	}{{nil, 0.5}, {xs, -0.1}, {xs, 1.1}, {xs, math.NaN()}} {
		if got := percentile(bad.xs, bad.q); !math.IsNaN(got) {
			t.Errorf("percentile(%v, %v) = %v, want NaN", bad.xs, bad.q, got)
		}
	}
	if got := percentile([]float64{7}, 0.99); got != 7 {
		t.Errorf("percentile([7], 0.99) = %v, want 7", got)
	}
}

func TestRMSAndMean(t *testing.T) {
	tests := []struct {
		xs        []float64
		rms, mean float64
	}{
		{[]float64{3, 4}, math.Sqrt(12.5), 3.5},
		{[]float64{-2, 2}, 2, 0},
		{[]float64{0, 0, 0}, 0, 0},
	}
	for _, tt := range tests {
		if got := rms(tt.xs); math.Abs(got-tt.rms) > 1e-12 {
			t.Errorf("rms(%v) = %v, want %v", tt.xs, got, tt.rms)
		}
		if got := mean(tt.xs); math.Abs(got-tt.mean) > 1e-12 {
			t.Errorf("mean(%v) = %v, want %v", tt.xs, got, tt.mean)
		}
	}
	if !math.IsNaN(rms(nil)) || !math.IsNaN(mean(nil)) {
		t.Error("rms(nil) or mean(nil) is a number, want NaN")
	}
}

func TestSummaries(t *testing.T) {
	if quantiles(nil) != nil || errorSummary(nil) != nil {
		t.Fatal("summaries of nothing are not nil")
	}
	xs := []float64{0, 0, 0, 4}
	if q := quantiles(xs); q.P50 != 0 || q.Max != 4 || math.Abs(q.P99-3.88) > 1e-12 {
		t.Errorf("quantiles(%v) = %+v, want p50 0, p99 3.88, max 4", xs, *q)
	}
	if e := errorSummary(xs); e.RMS != 2 || e.Max != 4 {
		t.Errorf("errorSummary(%v) = %+v, want rms 2, max 4", xs, *e)
	}
}

func TestReservoirKeepsAllThenSamplesUniformly(t *testing.T) {
	r := newReservoir[int](100, 1, 0)
	for i := range 100 {
		r.add(i)
	}
	if r.sampled() || len(r.items) != 100 {
		t.Fatalf("after 100 adds: sampled %v, %d items, want every value", r.sampled(), len(r.items))
	}
	for i := 100; i < 10000; i++ {
		r.add(i)
	}
	if !r.sampled() || len(r.items) != 100 {
		t.Fatalf("after 10000 adds: sampled %v, %d items, want a sample of 100", r.sampled(), len(r.items))
	}
	// A uniform sample of 0..9999 has a mean near 5000; the standard error of the mean
	// of 100 draws is about 290, so 1500 off means the sample is biased.
	var sum int
	for _, v := range r.items {
		sum += v
	}
	if m := float64(sum) / 100; math.Abs(m-5000) > 1500 {
		t.Errorf("mean of the sample = %v, want near 5000", m)
	}
}
