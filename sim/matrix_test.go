package sim

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
	var errOut bytes.Buffer
	res, err := Run(ctx, cfg, &errOut)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if res.Report != nil || res.Matrix == nil {
		t.Fatalf("Run(matrix) = %+v, want only a matrix", res)
	}
	var out bytes.Buffer
	if err := res.WriteText(&out); err != nil {
		t.Fatalf("WriteText: %v", err)
	}
	if s := out.String(); !strings.Contains(s, "profile") || !strings.Contains(s, "note: interrupted before run 1 of") {
		t.Errorf("interrupted matrix printed %q, want the table header and a note", s)
	}
	out.Reset()
	if err := res.WriteJSON(&out); err != nil {
		t.Fatalf("WriteJSON: %v", err)
	}
	var m MatrixReport
	if err := json.Unmarshal(out.Bytes(), &m); err != nil || len(m.Runs) != 0 || len(m.Notes) != 1 {
		t.Errorf("interrupted -json = %+v, %v; want no runs and one note", m, err)
	}
}
