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

// TestMatrixCoversBothInputBufferModes checks that -input-buffer both puts every preset,
// lane and timeline in the matrix twice, buffer on right before buffer off, and that a
// single mode runs alone.
func TestMatrixCoversBothInputBufferModes(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Matrix, cfg.InputBuffer = true, "both"
	if err := cfg.Validate(); err != nil {
		t.Fatalf("Validate(matrix, both): %v", err)
	}
	both, err := matrixSpecs(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cells := len(matrixPresets()) * len(matrixLanes) * 2
	if len(both) != 2*cells {
		t.Fatalf("both modes: %d runs, want %d", len(both), 2*cells)
	}
	for i := 0; i < len(both); i += 2 {
		on, off := both[i], both[i+1]
		if on.cfg.InputBuffer != "on" || off.cfg.InputBuffer != "off" || on.profile != off.profile || on.lane != off.lane || on.interp != off.interp {
			t.Fatalf("runs %d and %d are %s and %s, want one cell with the buffer on, then off", i, i+1, on.label(), off.label())
		}
	}
	if got := both[1].label(); !strings.HasSuffix(got, "/buffer-off") {
		t.Errorf("label of a buffer-off run = %q, want it to say buffer-off", got)
	}
	cfg.InputBuffer = "off"
	one, err := matrixSpecs(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(one) != cells || one[0].cfg.InputBuffer != "off" {
		t.Errorf("-input-buffer off: %d runs (first %s), want %d, all off", len(one), one[0].label(), cells)
	}
	single := DefaultConfig()
	single.InputBuffer = "both"
	if err := single.Validate(); err == nil || !strings.Contains(err.Error(), "needs -matrix") {
		t.Errorf("Validate(one run, both) = %v, want an error saying both needs -matrix", err)
	}
}
