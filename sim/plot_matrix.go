package sim

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// writeMatrixPlots writes one bar chart per metric across profiles, lanes, timelines and
// input buffer modes. A run that did not measure a metric, or did not run, gets no bar but
// an "n/a" mark.
func writeMatrixPlots(dir string, runs []Report) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("tanksim: plot: %w", err)
	}
	profiles := runProfiles(runs)
	var files []string
	for _, c := range matrixCharts(runs) {
		p := newChart(fmt.Sprintf("%s (%d bots, %.0f s per run)", c.title, runs[0].Bots, runs[0].DurationSeconds), c.unit)
		p.X.Label.Text = "network profile"
		if err := addBars(p, profiles, c.bars); err != nil {
			return files, err
		}
		f := filepath.Join(dir, c.name+".png")
		if err := savePNG(p, f); err != nil {
			return files, err
		}
		files = append(files, f)
	}
	return files, nil
}

// matrixChart is one chart of a matrix: its file name (without .png), title, unit and bars.
type matrixChart struct {
	name, title, unit string
	bars              []barSeries
}

// matrixCharts returns the charts of runs, a metric each.
func matrixCharts(runs []Report) []matrixChart {
	return []matrixChart{
		{"matrix-holds-ratio", "Holds: remote frames with no bracketing snapshots", "% of remote frames",
			timelineBars(runs, func(r Report) *float64 { return percentOf(r.HoldsRatio) })},
		{"matrix-playback-error", "Remote playback error: drawn pose vs server at a steady delay (RMS)", "world units",
			timelineBars(runs, func(r Report) *float64 {
				if r.RemotePlaybackError == nil {
					return nil
				}
				return &r.RemotePlaybackError.RMS
			})},
		{"matrix-remote-delay", "Remote delay behind the server (median)", "delay (ms)",
			timelineBars(runs, func(r Report) *float64 { return p50Of(r.RemoteDelay) })},
		{"matrix-corrections", "Own tank: corrections, all bots together", "count",
			timelineBars(runs, func(r Report) *float64 { return ptr(float64(r.Corrections)) })},
		{"matrix-stalls", "Snapshot stalls: head-of-line (reliable) and lost snapshots (datagram), all bots", "count",
			timelineBars(runs, func(r Report) *float64 { return ptr(float64(r.HOLStalls + r.SnapshotsLost)) })},
		{"matrix-input-late", "Inputs: ticks after their due tick the server applied them (p99)", "ticks",
			timelineBars(runs, func(r Report) *float64 { return p99Of(r.InputLateTicks) })},
		{"matrix-input-starved", "Inputs: player-ticks the server had no input for (the tank stands)", "% of player-ticks",
			timelineBars(runs, func(r Report) *float64 { return percentOf(r.InputStarvedRatio) })},
		{"matrix-motion-uneven", "Server truth: moving ticks whose step differs from the one before by over 30%", "% of moving player-ticks",
			timelineBars(runs, func(r Report) *float64 { return percentOf(r.MotionUnevenRatio) })},
		{"matrix-input-wait", "Inputs: wait at the server from arrival to the tick that applied them (median)", "wait (ms)",
			timelineBars(runs, func(r Report) *float64 { return p50Of(r.InputWait) })},
	}
}

// p50Of returns a distribution's median, nil for nil.
func p50Of(q *Quantiles) *float64 {
	if q == nil {
		return nil
	}
	return &q.P50
}

// p99Of returns a distribution's 99th percentile, nil for nil.
func p99Of(q *Quantiles) *float64 {
	if q == nil {
		return nil
	}
	return &q.P99
}

// percentOf returns a ratio as a percentage, nil for nil.
func percentOf(ratio *float64) *float64 {
	if ratio == nil {
		return nil
	}
	return ptr(100 * *ratio)
}

// barSeries is one bar per profile, in profile order; missing[i] means values[i] was not
// measured (it is 0 and drawn as "n/a").
type barSeries struct {
	name     string
	timeline string // "datagram/receive": the lane and timeline, whatever the buffer mode
	faded    bool   // the input buffer was off: drawn in a lighter shade of its lane/timeline's colour
	values   plotter.Values
	missing  []bool
}

// runProfiles returns the profiles of runs in order of first appearance.
func runProfiles(runs []Report) []string {
	var names []string
	for _, r := range runs {
		if !slices.Contains(names, r.Profile) {
			names = append(names, r.Profile)
		}
	}
	return names
}

// timelineBars makes one series per lane, timeline and input buffer mode of metric over the
// profiles of runs, "datagram/receive" first, each with the buffer on before off. metric
// returns nil for a value not measured. Lanes and modes no run used get no series; the
// mode is named only when runs have both.
func timelineBars(runs []Report, metric func(Report) *float64) []barSeries {
	profiles := runProfiles(runs)
	modes := []string{"on", "off"}
	for _, r := range runs {
		if !slices.Contains(modes, r.InputBuffer) {
			modes = append(modes, r.InputBuffer) // not one tanksim writes, but drawn all the same
		}
	}
	modes = slices.DeleteFunc(modes, func(m string) bool {
		return !slices.ContainsFunc(runs, func(r Report) bool { return r.InputBuffer == m })
	})
	var out []barSeries
	for _, l := range matrixLanes {
		lane := l.String()
		if !slices.ContainsFunc(runs, func(r Report) bool { return r.Lane == lane }) {
			continue
		}
		for _, interp := range []string{interpReceive, interpAdaptive} {
			for _, mode := range modes {
				s := barSeries{name: lane + "/" + interp, timeline: lane + "/" + interp, faded: mode == "off", values: make(plotter.Values, len(profiles)), missing: make([]bool, len(profiles))}
				if len(modes) > 1 {
					s.name += ", buffer " + mode
				}
				for i := range s.missing {
					s.missing[i] = true // until a run says otherwise
				}
				for _, r := range runs {
					if r.Interp != interp || r.Lane != lane || r.InputBuffer != mode {
						continue
					}
					i := slices.Index(profiles, r.Profile)
					if v := metric(r); v != nil && !math.IsNaN(*v) && !math.IsInf(*v, 0) {
						s.values[i], s.missing[i] = *v, false
					}
				}
				out = append(out, s)
			}
		}
	}
	return out
}

// addBars draws series as groups of bars, one group per profile.
func addBars(p *plot.Plot, profiles []string, series []barSeries) error {
	group := min(12*float64(len(series)), 84) // points per profile group, shared by its bars
	w := vg.Points(group / float64(len(series)))
	cols := []color.RGBA{colBlue, colOrange, colGreen, colRed} // datagram receive, adaptive; reliable receive, adaptive
	var timelines []string                                     // one colour each; its buffer-off twin gets a lighter shade
	for i, s := range series {
		bc, err := plotter.NewBarChart(s.values, w)
		if err != nil {
			return fmt.Errorf("tanksim: plot: %w", err)
		}
		if !slices.Contains(timelines, s.timeline) {
			timelines = append(timelines, s.timeline)
		}
		c := cols[(len(timelines)-1)%len(cols)]
		bc.Color = c
		if s.faded {
			bc.Color = lighter(c)
		}
		bc.LineStyle.Width = 0
		bc.Offset = vg.Points((float64(i) - float64(len(series)-1)/2) * group / float64(len(series)))
		p.Add(bc)
		p.Legend.Add(s.name, bc)
		if na := missingLabels(s, bc.Offset); na != nil {
			p.Add(na)
		}
	}
	p.NominalX(profiles...)
	p.Y.Min = 0
	ensureYRange(p, 1)
	// The legend sits in the top left, a line per series: leave the top of the chart to it
	// so it covers no bar.
	p.Y.Max /= max(1-legendLineShare*float64(len(series)), 0.4)
	return nil
}

// legendLineShare is about how much of a chart's height one legend line takes.
const legendLineShare = 0.045

// lighter returns c halfway to white.
func lighter(c color.RGBA) color.RGBA {
	mix := func(v uint8) uint8 { return v + (255-v)/2 }
	return color.RGBA{R: mix(c.R), G: mix(c.G), B: mix(c.B), A: c.A}
}

// missingLabels returns "n/a" marks on the axis where s has no value, offset like its
// bars; nil when s misses nothing.
func missingLabels(s barSeries, offset vg.Length) *plotter.Labels {
	var xyl plotter.XYLabels
	for i, miss := range s.missing {
		if miss {
			xyl.XYs = append(xyl.XYs, plotter.XY{X: float64(i)})
			xyl.Labels = append(xyl.Labels, "n/a")
		}
	}
	if len(xyl.Labels) == 0 {
		return nil
	}
	l, err := plotter.NewLabels(xyl)
	if err != nil {
		return nil
	}
	for i := range l.TextStyle {
		l.TextStyle[i].Font.Size = vg.Points(7)
		l.TextStyle[i].XAlign = draw.XCenter
	}
	l.Offset = vg.Point{X: offset, Y: vg.Points(2)}
	return l
}
