package view

import (
	"math"
	"time"
)

// GraphWindow is how much recent history the live graph shows.
const GraphWindow = 10 * time.Second

// Sample is one frame's reading for the live graph.
type Sample struct {
	At         time.Duration // netcode time of the frame (client.Game.Now)
	RTT        time.Duration // latest round-trip measurement
	Correction float64       // size of the local correction offset, world units
}

// History keeps the samples of the last GraphWindow, oldest first, for the live graph. The
// zero value is ready. A History is not safe for concurrent use.
type History struct {
	buf []Sample
}

// Add appends s and forgets samples more than GraphWindow older than it. Samples must come
// with At non-decreasing.
func (h *History) Add(s Sample) {
	h.buf = append(h.buf, s)
	cut := 0
	for cut < len(h.buf) && s.At-h.buf[cut].At > GraphWindow {
		cut++
	}
	if cut > 0 {
		h.buf = h.buf[:copy(h.buf, h.buf[cut:])]
	}
}

// Samples returns the kept samples, oldest first. The slice is valid until the next Add.
func (h *History) Samples() []Sample { return h.buf }

// Point is a point in a graph's box, in pixels from its top-left corner.
type Point struct{ X, Y float64 }

// Plot maps the kept samples into a w x h box: the right edge is now, the left edge
// GraphWindow earlier; value picks what to plot, and top is the value at the top edge
// (larger values are clipped to it). It appends to dst and returns it.
func (h *History) Plot(dst []Point, now time.Duration, w, hgt, top float64, value func(Sample) float64) []Point {
	if top <= 0 {
		top = 1
	}
	for _, s := range h.buf {
		age := now - s.At
		if age < 0 || age > GraphWindow {
			continue
		}
		x := w * (1 - float64(age)/float64(GraphWindow))
		v := math.Min(math.Max(value(s), 0), top)
		dst = append(dst, Point{X: x, Y: hgt * (1 - v/top)})
	}
	return dst
}

// Max returns the largest value over the kept samples, or 0 with none.
func (h *History) Max(value func(Sample) float64) float64 {
	m := 0.0
	for _, s := range h.buf {
		m = math.Max(m, value(s))
	}
	return m
}

// NiceCeil returns the smallest of 1, 2 or 5 times a power of ten that is at least v (and at
// least min): a graph's top edge that moves in readable jumps.
func NiceCeil(v, min float64) float64 {
	v = math.Max(v, min)
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}
