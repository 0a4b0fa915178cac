package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
)

// run carries out cfg: one run, or the matrix, and writes the report to stdout, progress to
// stderr and charts to cfg.PlotDir.
func run(ctx context.Context, cfg Config, stdout, stderr io.Writer) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	if cfg.Matrix {
		return runMatrix(ctx, cfg, stdout, stderr)
	}
	spec, err := newSpec(cfg, cfg.Net, cfg.Interp)
	if err != nil {
		return err
	}
	stop := newProgress(stderr, 1).start(1, spec.label(), cfg.Duration)
	d, err := simulate(ctx, spec)
	stop()
	if err != nil {
		return err
	}
	rep := buildReport(d)
	if cfg.PlotDir != "" {
		files, err := writeRunPlots(cfg.PlotDir, d, rep)
		if err != nil {
			return err
		}
		rep.Notes = append(rep.Notes, fmt.Sprintf("wrote %d charts to %s", len(files), cfg.PlotDir))
	}
	if cfg.JSON {
		return writeJSON(stdout, rep)
	}
	rep.print(stdout)
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
