package view

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestFrameStats(t *testing.T) {
	var s FrameStats
	if got := s.Summary(); got.Frames != 0 || got.FPS != 0 {
		t.Errorf("empty Summary = %+v, want zero", got)
	}
	start := time.Unix(1000, 0)
	at := start
	s.Frame(at)
	// 99 frames 10 ms apart, then one 50 ms stall: 100 gaps over 1.04 s.
	for range 99 {
		at = at.Add(10 * time.Millisecond)
		s.Frame(at)
	}
	at = at.Add(50 * time.Millisecond)
	s.Frame(at)

	got := s.Summary()
	if got.Frames != 101 {
		t.Errorf("Frames = %d, want 101", got.Frames)
	}
	if want := 100 / 1.04; got.FPS < want-1e-9 || got.FPS > want+1e-9 {
		t.Errorf("FPS = %v, want %v", got.FPS, want)
	}
	if got.P50 != 10*time.Millisecond || got.Max != 50*time.Millisecond {
		t.Errorf("P50 %v Max %v, want 10ms and 50ms", got.P50, got.Max)
	}
	// The one stall is the top 1%: p99 is the 99th of 100 sorted gaps.
	if got.P99 != 50*time.Millisecond {
		t.Errorf("P99 = %v, want the 50ms stall", got.P99)
	}
}

func TestFrameSummary_JSON(t *testing.T) {
	s := FrameSummary{Frames: 600, FPS: 61.25, P50: 16400 * time.Microsecond, P99: 21 * time.Millisecond, Max: 30200 * time.Microsecond}
	var got struct {
		Frames  int                `json:"frames"`
		FPS     float64            `json:"fps"`
		FrameMS map[string]float64 `json:"frame_ms"`
	}
	if err := json.Unmarshal([]byte(s.JSON()), &got); err != nil {
		t.Fatalf("JSON() = %s: %v", s.JSON(), err)
	}
	if got.Frames != 600 || got.FPS != 61.2 && got.FPS != 61.3 || got.FrameMS["p50"] != 16.4 || got.FrameMS["p99"] != 21 || got.FrameMS["max"] != 30.2 {
		t.Errorf("JSON() = %s, want 600 frames, 61.2 fps, p50 16.4, p99 21.0, max 30.2", s.JSON())
	}
}

// TestFrameSummary_NoFramesSaysWhy: a run shorter than the warm-up times no frame, and says
// so instead of "0 frames, 0.0 fps".
func TestFrameSummary_NoFramesSaysWhy(t *testing.T) {
	if s := (FrameSummary{}).String(); !strings.Contains(s, "no frames timed") || strings.Contains(s, "0.0 fps") {
		t.Errorf("an empty summary reads %q", s)
	}
}

// TestFrameSummary_InputWaits: the frame report carries each player's wait percentiles,
// and none when no waits are given.
func TestFrameSummary_InputWaits(t *testing.T) {
	var waits []time.Duration
	for i := range 100 {
		waits = append(waits, time.Duration(i)*time.Millisecond)
	}
	w := SummarizeWaits("near", waits)
	if w.P50 != 50*time.Millisecond || w.P99 != 99*time.Millisecond || w.Ticks != 100 {
		t.Errorf("SummarizeWaits = %+v, want p50 50 ms, p99 99 ms over 100 ticks", w)
	}
	s := FrameSummary{Frames: 2, FPS: 60}
	if got := s.JSON(); strings.Contains(got, "input_wait") {
		t.Errorf("JSON() without waits = %s, want no input_wait_ms", got)
	}
	w.Resyncs = 2
	want := `"input_wait_ms": [{"player": "near", "p50": 50.0, "p99": 99.0, "ticks": 100, "clock_resyncs": 2}, {"player": "far", "p50": 0.0, "p99": 0.0, "ticks": 0, "clock_resyncs": 0}]}`
	if got := s.JSON(w, SummarizeWaits("far", nil)); !strings.HasSuffix(got, want) {
		t.Errorf("JSON(waits) = %s, want it to end %s", got, want)
	}
}
