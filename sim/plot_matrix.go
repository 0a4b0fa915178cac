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

// writeMatrixPlots writes one bar chart per metric across profiles and timelines. A run
// that did not measure a metric, or did not run, gets no bar but an "n/a" mark.
func writeMatrixPlots(dir string, runs []Report) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("tanksim: plot: %w", err)
	}
	charts := []struct {
		name, title, unit string
		bars              []barSeries
	}{
		{"matrix-holds-ratio", "Holds: remote frames with no bracketing snapshots", "% of remote frames",
			timelineBars(runs, func(r Report) *float64 {
				if r.HoldsRatio == nil {
					return nil
				}
				return ptr(100 * *r.HoldsRatio)
			})},
		{"matrix-playback-error", "Remote playback error: drawn pose vs server at a steady delay (RMS)", "world units",
			timelineBars(runs, func(r Report) *float64 {
				if r.RemotePlaybackError == nil {
					return nil
				}
				return &r.RemotePlaybackError.RMS
			})},
		{"matrix-remote-delay", "Remote delay behind the server (median)", "delay (ms)",
			timelineBars(runs, func(r Report) *float64 {
				if r.RemoteDelay == nil {
					return nil
				}
				return &r.RemoteDelay.P50
			})},
		{"matrix-corrections", "Own tank: corrections, all bots together", "count",
			timelineBars(runs, func(r Report) *float64 { return ptr(float64(r.Corrections)) })},
		{"matrix-stalls", "Snapshot stalls: head-of-line (reliable) and lost snapshots (datagram), all bots", "count",
			timelineBars(runs, func(r Report) *float64 { return ptr(float64(r.HOLStalls + r.SnapshotsLost)) })},
		{"matrix-input-late", "Inputs: ticks after their due tick the server applied them (p99)", "ticks",
			timelineBars(runs, func(r Report) *float64 {
				if r.InputLateTicks == nil {
					return nil
				}
				return &r.InputLateTicks.P99
			})},
	}
	profiles := runProfiles(runs)
	var files []string
	for _, c := range charts {
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

// barSeries is one bar per profile, in profile order; missing[i] means values[i] was not
// measured (it is 0 and drawn as "n/a").
type barSeries struct {
	name    string
	values  plotter.Values
	missing []bool
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

// timelineBars makes one series per lane and timeline of metric over the profiles of runs,
// "datagram/receive" first. metric returns nil for a value not measured. Lanes no run used
// get no series.
func timelineBars(runs []Report, metric func(Report) *float64) []barSeries {
	profiles := runProfiles(runs)
	var out []barSeries
	for _, l := range matrixLanes {
		lane := l.String()
		if !slices.ContainsFunc(runs, func(r Report) bool { return r.Lane == lane }) {
			continue
		}
		for _, interp := range []string{interpReceive, interpAdaptive} {
			s := barSeries{name: lane + "/" + interp, values: make(plotter.Values, len(profiles)), missing: make([]bool, len(profiles))}
			for i := range s.missing {
				s.missing[i] = true // until a run says otherwise
			}
			for _, r := range runs {
				if r.Interp != interp || r.Lane != lane {
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
	return out
}

// addBars draws series as groups of bars, one group per profile.
func addBars(p *plot.Plot, profiles []string, series []barSeries) error {
	const group = 60.0 // points per profile group, shared by its bars
	w := vg.Points(group / float64(len(series)))
	cols := []color.Color{colBlue, colOrange, colGreen, colRed} // datagram receive, adaptive; reliable receive, adaptive
	for i, s := range series {
		bc, err := plotter.NewBarChart(s.values, w)
		if err != nil {
			return fmt.Errorf("tanksim: plot: %w", err)
		}
		bc.Color = cols[i%len(cols)]
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
	return nil
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
