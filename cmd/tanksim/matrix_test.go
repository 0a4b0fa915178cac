package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestMatrixInterruptedReportsWhatFinished checks that Ctrl-C before or between runs
// still prints the table (empty here) with a note, and exits cleanly.
func TestMatrixInterruptedReportsWhatFinished(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cfg := DefaultConfig()
	cfg.Matrix, cfg.PlotDir = true, t.TempDir()
	var out, errOut bytes.Buffer
	if err := run(ctx, cfg, &out, &errOut); err != nil {
		t.Fatalf("run: %v", err)
	}
	if s := out.String(); !strings.Contains(s, "profile") || !strings.Contains(s, "note: interrupted before run 1 of") {
		t.Errorf("interrupted matrix printed %q, want the table header and a note", s)
	}
	cfg.JSON = true
	out.Reset()
	if err := run(ctx, cfg, &out, &errOut); err != nil {
		t.Fatalf("run -json: %v", err)
	}
	var m MatrixReport
	if err := json.Unmarshal(out.Bytes(), &m); err != nil || len(m.Runs) != 0 || len(m.Notes) != 1 {
		t.Errorf("interrupted -json = %+v, %v; want no runs and one note", m, err)
	}
}
