package view

import (
	"testing"
	"time"
)

func TestHistoryKeepsTheGraphWindow(t *testing.T) {
	var h History
	for i := range 1300 { // 13 s at 100 Hz
		h.Add(Sample{At: time.Duration(i) * 10 * time.Millisecond, Correction: float64(i)})
	}
	s := h.Samples()
	if first, last := s[0].At, s[len(s)-1].At; last-first != GraphWindow {
		t.Errorf("History spans %v..%v, want exactly GraphWindow (%v)", first, last, GraphWindow)
	}
	if got, want := h.Max(func(s Sample) float64 { return s.Correction }), 1299.0; got != want {
		t.Errorf("Max = %v, want %v", got, want)
	}
}

func TestHistoryPlot(t *testing.T) {
	var h History
	h.Add(Sample{At: 0, RTT: 50 * time.Millisecond})
	h.Add(Sample{At: 5 * time.Second, RTT: 200 * time.Millisecond})
	h.Add(Sample{At: 10 * time.Second, RTT: 100 * time.Millisecond})
	rtt := func(s Sample) float64 { return float64(s.RTT.Milliseconds()) }
	got := h.Plot(nil, 10*time.Second, 100, 50, 100, rtt)
	want := []Point{{0, 25}, {50, 0}, {100, 0}} // 200 ms clips to the top
	if len(got) != len(want) {
		t.Fatalf("Plot = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Plot point %d = %v, want %v", i, got[i], want[i])
		}
	}
}

func TestNiceCeil(t *testing.T) {
	tests := []struct{ v, min, want float64 }{
		{0, 100, 100},
		{87, 100, 100},
		{101, 100, 200},
		{260, 100, 500},
		{501, 100, 1000},
		{0.03, 0.5, 0.5},
		{0.7, 0.5, 1},
		{0, 0, 1},
	}
	for _, tt := range tests {
		if got := NiceCeil(tt.v, tt.min); got != tt.want {
			t.Errorf("NiceCeil(%v, %v) = %v, want %v", tt.v, tt.min, got, tt.want)
		}
	}
}
