package sim

import (
	"testing"
	"time"
)

// TestWatchPeriod: long runs are sampled every watchEvery; a short run often enough that
// its window (the run less the warm-up, and less however far apart the bots start) holds
// several samples, not the two that a 500 ms period fits in a 1.1 s window only by luck.
func TestWatchPeriod(t *testing.T) {
	for _, tt := range []struct {
		name string
		run  time.Duration
		want time.Duration
	}{
		{"a minute", time.Minute, watchEvery},
		{"five seconds: a tenth is watchEvery", 5 * time.Second, watchEvery},
		{"the test's 1.5 s", 1500 * time.Millisecond, 150 * time.Millisecond},
		{"50 ms: no faster than every 10 ms", 50 * time.Millisecond, 10 * time.Millisecond},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := watchPeriod(tt.run); got != tt.want {
				t.Errorf("watchPeriod(%v) = %v, want %v", tt.run, got, tt.want)
			}
		})
	}
	// The 1.5 s run's window is about 1.1 s; with the bots starting half a second apart
	// it still holds three samples.
	if window, period := 1500*time.Millisecond-min(warmup, 1500*time.Millisecond/4)-500*time.Millisecond, watchPeriod(1500*time.Millisecond); window/period < 3 {
		t.Errorf("a 1.5 s run whose bots start 500 ms apart has a %v window: %d samples at %v, want 3 or more", window, window/period, period)
	}
}
