package server

import (
	"testing"
	"time"
)

func TestDropLabel(t *testing.T) {
	for reason, want := range map[string]string{
		"timed out: nothing received for 5s":       dropTimeout,
		"protocol error: second Hello":             dropProtocol,
		"cannot keep up: control queue full":       dropSlow,
		"cannot keep up: transport: write timeout": dropSlow,
		"something new":                            dropOther,
	} {
		if got := dropLabel(reason); got != want {
			t.Errorf("dropLabel(%q) = %q, want %q", reason, got, want)
		}
	}
}

func TestTickHistogram_BucketsByUpperBound(t *testing.T) {
	var h tickHistogram
	for _, d := range []time.Duration{0, 50 * time.Microsecond, 51 * time.Microsecond, 2 * time.Millisecond, time.Second} {
		h.observe(d)
	}
	s := h.snapshot()
	want := map[time.Duration]uint64{50 * time.Microsecond: 2, 100 * time.Microsecond: 1, 2 * time.Millisecond: 1}
	for i, ub := range s.UpperBounds {
		if s.Counts[i] != want[ub] {
			t.Errorf("bucket <= %v holds %d, want %d", ub, s.Counts[i], want[ub])
		}
	}
	if wantSum := time.Second + 2*time.Millisecond + 101*time.Microsecond; s.Count != 5 || s.Sum != wantSum {
		t.Errorf("count %d sum %v, want 5 and %v (the 1 s tick counts beyond the last bucket)", s.Count, s.Sum, wantSum)
	}
}
