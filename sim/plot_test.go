package sim

import (
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"tanknet/netcode"
)

// fakeRun builds the measurements of a 3 s run of two bots without playing one.
func fakeRun(t *testing.T) *runData {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Bots, cfg.Duration = 2, 3*time.Second
	spec, err := newSpec(cfg, "wifi-bad", interpAdaptive, "datagram")
	if err != nil {
		t.Fatal(err)
	}
	d := &runData{spec: spec, start: time.Now(), windowStart: 500 * time.Millisecond, windowEnd: 3 * time.Second}
	for b := range 2 {
		p := newProbe(d.start, nil, uint64(b), 2)
		for f := range 180 {
			at := time.Duration(f) * time.Second / 60
			p.counted.add(at, 1, btoi(f%11 == 0))
			p.local.add(localSample{at: at, offset: 0.1 * math.Max(0, math.Sin(float64(f)/10)), reconciled: f%3 == 0, residual: 0.02 * float64(f%7)})
			p.remote.add(remoteSample{
				id: uint32(2 - b), at: at, pose: netcode.Pose{X: float64(f)},
				err: 0.01 * float64(f%5), delay: time.Duration(150+f%20) * time.Millisecond,
				configured: 100 * time.Millisecond, depth: 3 + f%2, bracketed: f%11 != 0,
			})
		}
		d.bots = append(d.bots, botRun{probe: p})
	}
	return d
}

func TestPlotsAreValidPNGs(t *testing.T) {
	dir := t.TempDir()
	d := fakeRun(t)
	files, err := writeRunPlots(filepath.Join(dir, "run"), d, buildReport(d))
	if err != nil {
		t.Fatal(err)
	}
	mfiles, err := writeMatrixPlots(filepath.Join(dir, "matrix"), matrixRuns())
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, mfiles...)
	if len(files) != 13 {
		t.Errorf("wrote %d charts, want 4 per run and 9 for the matrix: %v", len(files), files)
	}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(fh)
		fh.Close()
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if b := img.Bounds(); b.Dx() != chartWidthPx || b.Dy() != chartHeightPx {
			t.Errorf("%s is %dx%d, want %dx%d", f, b.Dx(), b.Dy(), chartWidthPx, chartHeightPx)
		}
	}
}

// matrixRuns is a small matrix's reports, made up: two profiles, both lanes, both buffer
// modes, some cells measured and one not at all.
func matrixRuns() []Report {
	return []Report{
		{Bots: 2, DurationSeconds: 3, Profile: "lan", Lane: "datagram", Interp: interpReceive, InputBuffer: "on", HoldsRatio: ptr(0.01), RemotePlaybackError: &ErrorSummary{RMS: 0.2}, RemoteDelay: &Quantiles{P50: 101}, Corrections: 3, InputStarvedRatio: ptr(0.0)},
		{Bots: 2, DurationSeconds: 3, Profile: "lan", Lane: "datagram", Interp: interpReceive, InputBuffer: "off", HoldsRatio: ptr(0.01), InputStarvedRatio: ptr(0.12), MotionUnevenRatio: ptr(0.4)},
		{Bots: 2, DurationSeconds: 3, Profile: "lan", Lane: "datagram", Interp: interpAdaptive, InputBuffer: "on", HoldsRatio: ptr(0.0), RemoteDelay: &Quantiles{P50: 60}, InputLateTicks: &Quantiles{P99: 1}, InputWait: &Quantiles{P50: 7}},
		{Bots: 2, DurationSeconds: 3, Profile: "lan", Lane: "reliable", Interp: interpAdaptive, InputBuffer: "on", HoldsRatio: ptr(0.02), HOLStalls: 4},
		{Bots: 2, DurationSeconds: 3, Profile: "wifi-bad", Lane: "datagram", Interp: interpReceive, InputBuffer: "on", HoldsRatio: ptr(0.12), Snaps: 1, SnapshotsLost: 9},
		{Bots: 2, DurationSeconds: 3, Profile: "wifi-bad", Lane: "datagram", Interp: interpAdaptive, InputBuffer: "off"}, // nothing measured
	}
}

// TestTimelineBarsSplitTheBufferModes checks that each lane and timeline gets a series per
// input buffer mode, on before off, the off one faded, with its values in the right cells.
func TestTimelineBarsSplitTheBufferModes(t *testing.T) {
	bars := timelineBars(matrixRuns(), func(r Report) *float64 { return percentOf(r.InputStarvedRatio) })
	var names []string
	for _, b := range bars {
		names = append(names, b.name)
	}
	want := []string{
		"datagram/receive, buffer on", "datagram/receive, buffer off", "datagram/adaptive, buffer on", "datagram/adaptive, buffer off",
		"reliable/receive, buffer on", "reliable/receive, buffer off", "reliable/adaptive, buffer on", "reliable/adaptive, buffer off",
	}
	if !slices.Equal(names, want) {
		t.Fatalf("series %q, want %q", names, want)
	}
	on, off := bars[0], bars[1]
	if on.faded || !off.faded || on.timeline != off.timeline {
		t.Errorf("datagram/receive: on faded %v, off faded %v, timelines %q and %q; want only off faded, one timeline", on.faded, off.faded, on.timeline, off.timeline)
	}
	if on.values[0] != 0 || on.missing[0] || off.values[0] != 12 || off.missing[0] || !off.missing[1] {
		t.Errorf("starved %%: on %v (missing %v), off %v (missing %v); want lan 0 on and 12 off, wifi-bad off not measured", on.values, on.missing, off.values, off.missing)
	}
	single := timelineBars(matrixRuns()[:1], func(r Report) *float64 { return ptr(1.0) })
	if len(single) != 2 || single[0].name != "datagram/receive" {
		t.Errorf("one mode: series %+v, want datagram/receive and adaptive, the mode unnamed", single)
	}
}

func TestBinned(t *testing.T) {
	var xs []remoteSample
	for i := range 10 {
		xs = append(xs, remoteSample{at: time.Duration(i) * 50 * time.Millisecond, err: float64(i)})
	}
	xs = append(xs, remoteSample{at: 0, err: math.NaN()}) // skipped, not a NaN point
	got := binned(slices.Values(xs), 100*time.Millisecond, func(s remoteSample) (float64, bool) { return s.err, true }, maxOf)
	if len(got) != 5 {
		t.Fatalf("binned(10 samples over 0.5 s, 100 ms) = %d bins, want 5", len(got))
	}
	for i, p := range got {
		if wantX, wantY := 0.05+0.1*float64(i), float64(2*i+1); math.Abs(p.X-wantX) > 1e-9 || p.Y != wantY {
			t.Errorf("bin %d = (%v, %v), want (%v, %v)", i, p.X, p.Y, wantX, wantY)
		}
	}
}
