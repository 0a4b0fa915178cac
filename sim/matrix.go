package sim

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"
)

// MatrixReport is a -matrix result: one Report per profile, lane, timeline and input buffer
// mode, profiles from the best network to the worst, datagram before reliable, receive
// before adaptive, buffer on before off.
type MatrixReport struct {
	Bots            int      `json:"bots"`            // bots per run
	DurationSeconds float64  `json:"duration_s"`      // how long each run played (s)
	Seed            uint64   `json:"seed"`            // Config.Seed, the same for every run
	Runs            []Report `json:"runs"`            // the runs that finished, in order
	Notes           []string `json:"notes,omitempty"` // why runs are missing, if any are
}

// runMatrix runs every preset (but the perfect link) on both lanes with both timelines, in
// each input buffer mode cfg.InputBuffer names ("both": on, then off), one after the other,
// and writes the bar charts. Interrupted, it returns the runs that finished.
func runMatrix(ctx context.Context, cfg Config, progress io.Writer) (MatrixReport, error) {
	specs, err := matrixSpecs(cfg)
	if err != nil {
		return MatrixReport{}, err
	}
	prog := newProgress(progress, len(specs))
	m := MatrixReport{Bots: cfg.Bots, DurationSeconds: cfg.Duration.Seconds(), Seed: cfg.Seed}
	for i, s := range specs {
		if ctx.Err() != nil {
			m.Notes = append(m.Notes, fmt.Sprintf("interrupted before run %d of %d (%s): %d runs finished", i+1, len(specs), s.label(), len(m.Runs)))
			break
		}
		stop := prog.start(i+1, s.label(), cfg.Duration)
		d, err := simulate(ctx, s)
		stop()
		if ctx.Err() != nil { // the run in progress is cut short: leave it out
			m.Notes = append(m.Notes, fmt.Sprintf("interrupted during run %d of %d (%s): %d runs finished", i+1, len(specs), s.label(), len(m.Runs)))
			break
		}
		if err != nil {
			return MatrixReport{}, fmt.Errorf("tanksim: run %s: %w", s.label(), err)
		}
		m.Runs = append(m.Runs, buildReport(d))
	}
	if cfg.PlotDir != "" && len(m.Runs) > 0 {
		if _, err := writeMatrixPlots(cfg.PlotDir, m.Runs); err != nil {
			return MatrixReport{}, err
		}
	}
	return m, nil
}

// matrixSpecs returns the matrix's runs in the order MatrixReport documents.
func matrixSpecs(cfg Config) ([]runSpec, error) {
	var specs []runSpec
	for _, name := range matrixPresets() {
		for _, l := range matrixLanes {
			for _, interp := range []string{interpReceive, interpAdaptive} {
				for _, mode := range matrixBufferModes(cfg.InputBuffer) {
					c := cfg
					c.InputBuffer = mode
					s, err := newSpec(c, name, interp, l.String())
					if err != nil {
						return nil, err
					}
					specs = append(specs, s)
				}
			}
		}
	}
	return specs, nil
}

// matrixBufferModes returns the input buffer modes a matrix runs for -input-buffer mode.
func matrixBufferModes(mode string) []string {
	if mode == "both" {
		return []string{"on", "off"}
	}
	return []string{mode}
}

// WriteText writes the comparison table for people, one row per run.
func (m MatrixReport) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "%d bots, %.0fs per run, seed %d\n\n", m.Bots, m.DurationSeconds, m.Seed)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "profile\tlane\tinterp\tbuffer\tholds\terr max\tplay rms\tplay p99\tdelay p50 ms\tdelay ratio\tRTT p50 ms\tHOL\tlost\tlate p99\tstarved\tdoubled\tuneven\tresid>0\tcorr\tsnaps\tup B/s\tdown B/s\ttick p99 ms\t")
	for _, r := range m.Runs {
		var errMax, playRMS, playP99, delay, rtt, tick, late *float64
		if e := r.RemoteError; e != nil {
			errMax = &e.Max
		}
		if e := r.RemotePlaybackError; e != nil {
			playRMS, playP99 = &e.RMS, &e.P99
		}
		if q := r.RemoteDelay; q != nil {
			delay = &q.P50
		}
		if q := r.RTT; q != nil {
			rtt = &q.P50
		}
		if q := r.ServerTick; q != nil {
			tick = &q.P99
		}
		if q := r.InputLateTicks; q != nil {
			late = &q.P99
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%.0f\t%.0f\t%s\t\n",
			r.Profile, r.Lane, r.Interp, r.InputBuffer, optPercent(r.HoldsRatio), opt("%.2g", errMax), opt("%.3f", playRMS), opt("%.3f", playP99),
			opt("%.1f", delay), opt("%.2f", r.RemoteDelayRatio), opt("%.1f", rtt),
			r.HOLStalls, r.SnapshotsLost, opt("%.0f", late), optPercent(r.InputStarvedRatio), optPercent(r.InputDoubleRatio), optPercent(r.MotionUnevenRatio),
			r.ResidualNonZero, r.Corrections, r.Snaps, r.BytesPerSecond.Up, r.BytesPerSecond.Down, opt("%.3f", tick))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, n := range m.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	return nil
}
