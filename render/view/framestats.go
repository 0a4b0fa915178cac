package view

import (
	"fmt"
	"slices"
	"time"
)

// FrameStats measures how fast the window draws: the time between consecutive frames, from
// which the frames per second and the frame-time percentiles follow. The zero value is
// ready. A FrameStats is not safe for concurrent use.
type FrameStats struct {
	first, last time.Time
	gaps        []time.Duration // between consecutive frames, in order
}

// Frame records a frame drawn at now.
func (s *FrameStats) Frame(now time.Time) {
	if s.first.IsZero() {
		s.first, s.last = now, now
		return
	}
	s.gaps = append(s.gaps, now.Sub(s.last))
	s.last = now
}

// FrameSummary is what FrameStats measured.
type FrameSummary struct {
	Frames int           // frames recorded
	FPS    float64       // frames per second over the whole run; 0 with fewer than two frames
	P50    time.Duration // median time between frames
	P99    time.Duration // 99th percentile time between frames
	Max    time.Duration // longest time between frames
}

// Summary returns the frame rate and frame-time percentiles so far.
func (s *FrameStats) Summary() FrameSummary {
	n := len(s.gaps)
	sum := FrameSummary{Frames: n}
	if !s.first.IsZero() {
		sum.Frames++
	}
	if n == 0 {
		return sum
	}
	sum.FPS = float64(n) / s.last.Sub(s.first).Seconds()
	sorted := slices.Clone(s.gaps)
	slices.Sort(sorted)
	at := func(q float64) time.Duration { return sorted[min(n-1, int(q*float64(n)))] }
	sum.P50, sum.P99, sum.Max = at(0.5), at(0.99), sorted[n-1]
	return sum
}

// String formats s on one line, e.g. "600 frames, 59.8 fps, frame time p50 16.7 ms p99
// 18.1 ms max 25.0 ms".
func (s FrameSummary) String() string {
	if s.Frames == 0 {
		return "no frames timed (the run ended before the warm-up did: draw more -frames for a rate)"
	}
	msf := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	return fmt.Sprintf("%d frames, %.1f fps, frame time p50 %.1f ms p99 %.1f ms max %.1f ms",
		s.Frames, s.FPS, msf(s.P50), msf(s.P99), msf(s.Max))
}

// JSON formats s as one JSON object, the -frame-report line:
// {"frames": 600, "fps": 61.2, "frame_ms": {"p50": 16.4, "p99": 21.0, "max": 30.2}}.
func (s FrameSummary) JSON() string {
	msf := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	return fmt.Sprintf(`{"frames": %d, "fps": %.1f, "frame_ms": {"p50": %.1f, "p99": %.1f, "max": %.1f}}`,
		s.Frames, s.FPS, msf(s.P50), msf(s.P99), msf(s.Max))
}
