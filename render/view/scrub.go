package view

import "time"

// ScrubTo returns the moment of a recording of length d that a playback bar drawn at bar
// shows at the window's x: the bar's left edge is the start, its right edge the end, and
// beyond them the ends.
func ScrubTo(x float64, bar Rect, d time.Duration) time.Duration {
	if bar.W <= 0 {
		return 0
	}
	f := min(max((x-bar.X)/bar.W, 0), 1)
	return time.Duration(f * float64(d))
}
