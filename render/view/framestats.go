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

// JSON formats s as one JSON object, the -frame-report line, with each client's input wait
// when waits are given:
// {"frames": 600, "fps": 61.2, "frame_ms": {"p50": 16.4, "p99": 21.0, "max": 30.2},
// "input_wait_ms": [{"player": "near", "p50": 7.0, "p99": 12.0, "ticks": 180, "clock_resyncs": 0}]}.
func (s FrameSummary) JSON(waits ...WaitSummary) string {
	msf := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	out := fmt.Sprintf(`{"frames": %d, "fps": %.1f, "frame_ms": {"p50": %.1f, "p99": %.1f, "max": %.1f}`,
		s.Frames, s.FPS, msf(s.P50), msf(s.P99), msf(s.Max))
	if len(waits) > 0 {
		out += `, "input_wait_ms": [`
		for i, w := range waits {
			if i > 0 {
				out += ", "
			}
			out += fmt.Sprintf(`{"player": %q, "p50": %.1f, "p99": %.1f, "ticks": %d, "clock_resyncs": %d}`, w.Player, msf(w.P50), msf(w.P99), w.Ticks, w.Resyncs)
		}
		out += "]"
	}
	return out + "}"
}

// WaitSummary is how long one client's inputs waited in the server's input buffer over the
// ticks a frame report covers: each tick's wait as the server reported it (a starved tick
// counts as a tick's wait short: -50 ms).
type WaitSummary struct {
	Player   string
	P50, P99 time.Duration
	Ticks    int
	// Resyncs is how many times the client's prediction clock jumped in that time instead of
	// drifting (netcode.Dilation): after each, the wait takes seconds to settle again.
	Resyncs int
}

// SummarizeWaits returns the percentiles of waits, one per tick.
func SummarizeWaits(player string, waits []time.Duration) WaitSummary {
	s := WaitSummary{Player: player, Ticks: len(waits)}
	if len(waits) == 0 {
		return s
	}
	sorted := slices.Clone(waits)
	slices.Sort(sorted)
	at := func(q float64) time.Duration { return sorted[min(len(sorted)-1, int(q*float64(len(sorted))))] }
	s.P50, s.P99 = at(0.5), at(0.99)
	return s
}
