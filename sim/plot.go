package sim

import (
	"fmt"
	"image/color"
	"iter"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Chart size: small enough for a README, wide enough for a 20 s time axis.
const (
	chartWidthPx, chartHeightPx = 800, 400
	chartDPI                    = 96
)

// maxBins is the most points a time-series line gets; bins are at least minBin wide.
const (
	maxBins = 400
	minBin  = 100 * time.Millisecond // two snapshots: finer only shows the tick pattern
)

// Series colours: distinct in colour and in lightness, so greyscale prints still read.
var (
	colBlue   = color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}
	colOrange = color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff}
	colGreen  = color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}
	colRed    = color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}
	colGrey   = color.RGBA{R: 0x55, G: 0x55, B: 0x55, A: 0xff}
)

// writeRunPlots writes one run's time series into dir, named after its profile and
// timeline, and returns the files written. rep is d's report.
func writeRunPlots(dir string, d *runData, rep Report) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("tanksim: plot: %w", err)
	}
	prefix := strings.ReplaceAll(d.spec.label(), "/", "-")
	title := fmt.Sprintf("%s, %s timeline, %d bots", d.spec.profile, d.spec.interp, d.spec.cfg.Bots)
	width := max(minBin, (d.windowEnd-d.windowStart)/maxBins)
	remote := windowed(d, func(p *probe) []remoteSample { return p.remote.items })
	local := windowed(d, func(p *probe) []localSample { return p.local.items })

	charts := []struct {
		name string
		p    *plot.Plot
	}{
		{"correction", correctionChart(title, local, width)},
		{"remote-error", remoteErrorChart(title, remote, playback(d, rep), width)},
		{"remote-delay", remoteDelayChart(title, remote, width, d.spec.cond.Inbound.Latency)},
		{"buffer-depth", bufferChart(title, remote, width)},
	}
	var files []string
	for _, c := range charts {
		f := filepath.Join(dir, prefix+"-"+c.name+".png")
		if err := savePNG(c.p, f); err != nil {
			return files, err
		}
		files = append(files, f)
	}
	return files, nil
}

// correctionChart shows the own tank's correction offset (largest over bots per bin) and
// every non-zero replay residual.
func correctionChart(title string, local iter.Seq[localSample], width time.Duration) *plot.Plot {
	p := newChart("Own tank: correction offset and replay residual ("+title+")", "world units")
	offset := binned(local, width, func(s localSample) (float64, bool) { return s.offset, true }, maxOf)
	addLine(p, "correction offset (max over bots)", offset, colBlue, false)
	var res plotter.XYs
	for s := range local {
		if s.reconciled && s.residual > 0 {
			res = append(res, plotter.XY{X: s.at.Seconds(), Y: s.residual})
		}
	}
	sc, err := plotter.NewScatter(res)
	if err == nil {
		sc.Color, sc.Radius = colRed, vg.Points(2)
		p.Add(sc)
		p.Legend.Add(fmt.Sprintf("replay residual, non-zero (%d in the window)", len(res)), sc)
	}
	ensureYRange(p, 0.01)
	return p
}

// remoteErrorChart shows the distance between drawn remote poses and ground truth: at the
// drawn tick, and at a steady delay behind the server (playback).
func remoteErrorChart(title string, remote iter.Seq[remoteSample], play []timedValue, width time.Duration) *plot.Plot {
	p := newChart("Remote tanks: error against the server ("+title+")", "world units")
	val := func(s remoteSample) (float64, bool) { return s.err, !math.IsNaN(s.err) }
	pval := func(s timedValue) (float64, bool) { return s.v, true }
	addLine(p, "playback, max", binned(slices.Values(play), width, pval, maxOf), colOrange, false)
	addLine(p, "playback, RMS", binned(slices.Values(play), width, pval, rms), colBlue, false)
	addLine(p, "at the drawn tick, max", binned(remote, width, val, maxOf), colRed, true)
	ensureYRange(p, 0.01)
	return p
}

// playback returns the run's playback errors at rep's median delay, or none without
// ground truth.
func playback(d *runData, rep Report) []timedValue {
	if rep.RemoteDelay == nil {
		return nil
	}
	var play []timedValue
	eachPlaybackError(d, rep.RemoteDelay.P50, func(at time.Duration, v float64) {
		play = append(play, timedValue{at: at, v: v})
	})
	return play
}

// windowed yields the samples of every bot that items picks and the window holds,
// without copying them.
func windowed[T interface{ time() time.Duration }](d *runData, items func(*probe) []T) iter.Seq[T] {
	return func(yield func(T) bool) {
		for _, b := range d.bots {
			for _, s := range items(b.probe) {
				if d.inWindow(s.time()) && !yield(s) {
					return
				}
			}
		}
	}
}

// remoteDelayChart shows how old the drawn remote poses are, against one-way latency plus
// the interpolator's configured delay.
func remoteDelayChart(title string, remote iter.Seq[remoteSample], width, oneWay time.Duration) *plot.Plot {
	p := newChart("Remote tanks: delay behind the server ("+title+")", "delay (ms)")
	val := func(s remoteSample) (float64, bool) { return millis(s.delay), !math.IsNaN(s.err) }
	addLine(p, "max", binned(remote, width, val, maxOf), colOrange, false)
	addLine(p, "median", binned(remote, width, val, median), colBlue, false)
	want := binned(remote, width, func(s remoteSample) (float64, bool) { return millis(oneWay + s.configured), true }, mean)
	addLine(p, "one-way latency + configured delay", want, colGrey, true)
	p.Y.Min = 0
	return p
}

// bufferChart shows how many snapshots the interpolators hold, and how often they hold.
func bufferChart(title string, remote iter.Seq[remoteSample], width time.Duration) *plot.Plot {
	p := newChart("Remote tanks: interpolation buffer depth ("+title+")", "snapshots buffered")
	val := func(s remoteSample) (float64, bool) { return float64(s.depth), true }
	addLine(p, "mean", binned(remote, width, val, mean), colBlue, false)
	addLine(p, "min over remote tanks", binned(remote, width, val, minOf), colRed, false)
	p.Y.Min = 0
	ensureYRange(p, 2)
	return p
}

// newChart returns a plot with tanknet's common look: a title, a time or profile X axis, a
// light grid and the legend at the top left.
func newChart(title, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(11)
	p.Title.Padding = vg.Points(6)
	p.Y.Tick.Marker = plainTicks{}
	p.X.Label.Text = "time since the run started (s)"
	p.Y.Label.Text = yLabel
	p.Add(plotter.NewGrid())
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	p.Legend.Padding = vg.Points(2)
	return p
}

// plainTicks is gonum's default tick placement with labels in their shortest form ("0.5",
// "500"), not padded to a common precision ("500.00").
type plainTicks struct{}

func (plainTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value, 'f', -1, 64)
		}
	}
	return ts
}

// addLine adds xys as a named line.
func addLine(p *plot.Plot, name string, xys plotter.XYs, c color.Color, dashed bool) {
	if len(xys) == 0 {
		return
	}
	l, err := plotter.NewLine(xys)
	if err != nil {
		return // only NaN or infinite points, which binned never makes
	}
	l.Color, l.Width = c, vg.Points(1.2)
	if dashed {
		l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	}
	p.Add(l)
	p.Legend.Add(name, l)
}

// ensureYRange keeps a flat or empty chart readable: the Y axis spans at least [0, span]
// and leaves headroom above the data for the legend.
func ensureYRange(p *plot.Plot, span float64) {
	p.Y.Min = min(p.Y.Min, 0)
	p.Y.Max = max(p.Y.Max*1.25, p.Y.Min+span)
}

// savePNG writes p as a chartWidthPx x chartHeightPx PNG.
func savePNG(p *plot.Plot, file string) error {
	pt := func(px int) vg.Length { return vg.Length(px) * vg.Inch / chartDPI }
	c := vgimg.NewWith(vgimg.UseWH(pt(chartWidthPx), pt(chartHeightPx)), vgimg.UseDPI(chartDPI))
	p.Draw(draw.New(c))
	f, err := os.Create(file)
	if err != nil {
		return fmt.Errorf("tanksim: plot: %w", err)
	}
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(f); err != nil {
		f.Close()
		return fmt.Errorf("tanksim: plot %s: %w", file, err)
	}
	return f.Close()
}

// binned groups items into time bins of width and reduces each bin's values with agg; the
// point sits at the bin's centre. val returns false for items without a value.
func binned[T interface{ time() time.Duration }](items iter.Seq[T], width time.Duration, val func(T) (float64, bool), agg func([]float64) float64) plotter.XYs {
	bins := map[int64][]float64{}
	for it := range items {
		if v, ok := val(it); ok && !math.IsNaN(v) && !math.IsInf(v, 0) {
			k := int64(it.time() / width)
			bins[k] = append(bins[k], v)
		}
	}
	keys := make([]int64, 0, len(bins))
	for k := range bins {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	xys := make(plotter.XYs, 0, len(keys))
	for _, k := range keys {
		xys = append(xys, plotter.XY{X: (float64(k) + 0.5) * width.Seconds(), Y: agg(bins[k])})
	}
	return xys
}

func (s remoteSample) time() time.Duration { return s.at }
func (s localSample) time() time.Duration  { return s.at }
func (s timedValue) time() time.Duration   { return s.at }

func maxOf(xs []float64) float64 { return slices.Max(xs) }
func minOf(xs []float64) float64 { return slices.Min(xs) }
func median(xs []float64) float64 {
	return percentile(xs, 0.5)
}
