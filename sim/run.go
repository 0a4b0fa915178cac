package sim

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// Result is what Run measured: Report for one configuration, Matrix for cfg.Matrix.
// Exactly one of the two is set.
type Result struct {
	Report *Report
	Matrix *MatrixReport
}

// Run carries out cfg: one run of cfg.Net with cfg.Interp, or with cfg.Matrix every preset
// but "none" with both timelines, one after the other. It validates cfg first, writes
// progress lines to progress (nil discards them) and, if cfg.PlotDir is set, PNG charts
// there. It plays for cfg.Duration per run; cancelling ctx ends a run early, and an
// interrupted matrix returns the runs that finished, with a note.
func Run(ctx context.Context, cfg Config, progress io.Writer) (Result, error) {
	if err := cfg.Validate(); err != nil {
		return Result{}, err
	}
	if progress == nil {
		progress = io.Discard
	}
	if cfg.RecordDir != "" {
		if err := os.MkdirAll(cfg.RecordDir, 0o755); err != nil {
			return Result{}, fmt.Errorf("tanksim: -record: %w", err)
		}
	}
	if cfg.Matrix {
		m, err := runMatrix(ctx, cfg, progress)
		if err != nil {
			return Result{}, err
		}
		return Result{Matrix: &m}, nil
	}
	rep, err := runOne(ctx, cfg, progress)
	if err != nil {
		return Result{}, err
	}
	return Result{Report: &rep}, nil
}

// runOne measures cfg.Net with cfg.Interp and writes its charts to cfg.PlotDir.
func runOne(ctx context.Context, cfg Config, progress io.Writer) (Report, error) {
	spec, err := newSpec(cfg, cfg.Net, cfg.Interp, cfg.Lane)
	if err != nil {
		return Report{}, err
	}
	stop := newProgress(progress, 1).start(1, spec.label(), cfg.Duration)
	d, err := simulate(ctx, spec)
	stop()
	if err != nil {
		return Report{}, err
	}
	rep := buildReport(d)
	rep.Groups = groupReports(d)
	rep.Rooms = roomReports(d)
	rep.RoomTick = d.roomTick(cfg.roomNames()...) // the ticks of every room the bots played in
	if cfg.PlotDir != "" {
		files, err := writeRunPlots(cfg.PlotDir, d, rep)
		if err != nil {
			return Report{}, err
		}
		rep.Notes = append(rep.Notes, fmt.Sprintf("wrote %d charts to %s", len(files), cfg.PlotDir))
	}
	return rep, nil
}

// WriteText writes the result for people: a report with a table of bots, or the matrix's
// comparison table.
func (r Result) WriteText(w io.Writer) error {
	if r.Matrix != nil {
		return r.Matrix.WriteText(w)
	}
	if r.Report != nil {
		return r.Report.WriteText(w)
	}
	return nil
}

// WriteJSON writes the result as one indented JSON object: a Report, or a MatrixReport.
func (r Result) WriteJSON(w io.Writer) error {
	var v any = r.Report
	if r.Matrix != nil {
		v = r.Matrix
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
