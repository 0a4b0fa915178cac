package main

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
)

// TestWriteSection: a section's table has a row per command with the figures its report
// holds at each column's path ("-" for null), a failed run says why, and the commands follow.
func TestWriteSection(t *testing.T) {
	s := section{
		title: "Lanes",
		about: "What lanes do.",
		rows: []row{
			{"good", []string{"bin/tanksim", "-net", "wifi-bad"}, ""},
			{"bad", []string{"bin/tanksim", "-net", "nowhere"}, ""},
		},
		cols: []column{{"RTT p50 / p99", "rtt_ms.p50 rtt_ms.p99"}, {"agreement", "hit_agreement"}, {"stalls", "hol_stalls"}, {"bytes", "bytes"}},
	}
	run := func(cmd []string) ([]byte, error) {
		if cmd[2] == "nowhere" {
			return nil, errors.New("unknown preset\nnowhere")
		}
		return []byte(`{"rtt_ms": {"p50": 81.774, "p99": 90}, "hit_agreement": null, "hol_stalls": 3, "bytes": 6104.2}`), nil
	}
	var b bytes.Buffer
	writeSection(&b, s, run)
	got := b.String()
	for _, want := range []string{
		"## Lanes\n\nWhat lanes do.",
		"| good | 81.8 / 90 | - | 3 | 6104 |",
		"| bad | failed: unknown preset nowhere | | | |",
		"```sh\nbin/tanksim -net wifi-bad\nbin/tanksim -net nowhere\n```",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("section lacks %q:\n%s", want, got)
		}
	}
}

// TestWriteSection_RowsReadPartsOfOneRun: rows with one command run it once and read
// their figures from the part their path names; a missing part says so.
func TestWriteSection_RowsReadPartsOfOneRun(t *testing.T) {
	grouped := []string{"bin/tanksim", "-group", "4:lan", "-group", "4:wifi-bad", "-json"}
	s := section{
		title: "Groups", about: "Two groups.",
		rows: []row{{"lan group", grouped, "groups.0"}, {"wifi-bad group", grouped, "groups.1"}, {"third", grouped, "groups.2"}},
		cols: []column{{"RTT p50", "rtt_ms.p50"}},
	}
	runs := 0
	run := func([]string) ([]byte, error) {
		runs++
		return []byte(`{"rtt_ms": {"p50": 100}, "groups": [{"rtt_ms": {"p50": 2}}, {"rtt_ms": {"p50": 150}}]}`), nil
	}
	var b bytes.Buffer
	writeSection(&b, s, run)
	got := b.String()
	for _, want := range []string{"| lan group | 2 |", "| wifi-bad group | 150 |", "| third | failed: the report has no groups.2 |"} {
		if !strings.Contains(got, want) {
			t.Errorf("section lacks %q:\n%s", want, got)
		}
	}
	if runs != 1 || strings.Count(got, "-group 4:lan") != 1 {
		t.Errorf("one command ran %d times and is listed %d times, want once each:\n%s", runs, strings.Count(got, "-group 4:lan"), got)
	}
}

// TestSectionsAreRunnable: every command runs a program from bin/ (or one under xvfb-run) and
// asks for a JSON report, and every row fills every column's header.
func TestSectionsAreRunnable(t *testing.T) {
	for _, s := range sections {
		if s.title == "" || s.about == "" || len(s.rows) == 0 || len(s.cols) == 0 {
			t.Errorf("section %q is incomplete", s.title)
		}
		for _, r := range s.rows {
			cmd := strings.Join(r.cmd, " ")
			if r.cmd[0] == "scripts/roomscale.sh" { // runs bin/tankserver and bin/tanksim -json
				script, err := os.ReadFile("../../" + r.cmd[0])
				if err != nil || !strings.Contains(string(script), "bin/tanksim") || !strings.Contains(string(script), "-json") {
					t.Errorf("%s / %s: %s does not run bin/tanksim with -json (%v)", s.title, r.label, r.cmd[0], err)
				}
				continue
			}
			if strings.HasPrefix(cmd, "go run ./tools/loadcurve ") { // runs bin/tankserver; prints JSON
				if _, err := os.Stat("../loadcurve/main.go"); err != nil {
					t.Errorf("%s / %s: %v", s.title, r.label, err)
				}
				continue
			}
			if strings.HasPrefix(cmd, "go run ./tools/webmeasure ") { // runs bin/tankserver, bin/tanksim and Chromium; prints JSON
				if _, err := os.Stat("../webmeasure/main.go"); err != nil {
					t.Errorf("%s / %s: %v", s.title, r.label, err)
				}
				continue
			}
			if !strings.Contains(cmd, "bin/tanksim") && !strings.Contains(cmd, "bin/tankclient") {
				t.Errorf("%s / %s: %q runs no program from bin/", s.title, r.label, cmd)
			}
			if !strings.Contains(cmd, "-json") && !strings.Contains(cmd, "-frame-report") {
				t.Errorf("%s / %s: %q prints no JSON report", s.title, r.label, cmd)
			}
		}
	}
}

// TestWriteMatrix: a row per run of the matrix, labelled by its profile, lane, timeline and
// buffer mode; the charts linked from the document's directory; a failed matrix says why.
func TestWriteMatrix(t *testing.T) {
	s := matrixSection{
		title: "Matrix", about: "Every cell.", cmd: []string{"bin/tanksim", "-matrix", "-json"},
		plotDir: "docs/plots", plots: []string{"matrix-input-starved"},
		cols: []column{{"starved", "input_starved_ratio"}, {"wait p50", "input_wait_ms.p50"}},
	}
	run := func([]string) ([]byte, error) {
		return []byte(`{"runs": [
			{"profile": "lan", "lane": "datagram", "interp": "receive", "input_buffer": "on", "input_starved_ratio": 0, "input_wait_ms": {"p50": 7.31}},
			{"profile": "lan", "lane": "datagram", "interp": "receive", "input_buffer": "off", "input_starved_ratio": 0.123, "input_wait_ms": null}],
			"notes": ["interrupted during run 3 of 40"]}`), nil
	}
	var b bytes.Buffer
	writeMatrix(&b, s, "docs", run)
	got := b.String()
	for _, want := range []string{
		"## Matrix\n\nEvery cell.",
		"| profile | lane | timeline | input buffer | starved | wait p50 |",
		"| lan | datagram | receive | on | 0 | 7.31 |",
		"| lan | datagram | receive | off | 0.123 | - |",
		"Note: interrupted during run 3 of 40",
		"![matrix-input-starved](plots/matrix-input-starved.png)",
		"```sh\nbin/tanksim -matrix -json\n```",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("matrix section lacks %q:\n%s", want, got)
		}
	}
	b.Reset()
	writeMatrix(&b, s, "docs", func([]string) ([]byte, error) { return nil, errors.New("tanksim: no bin") })
	if got := b.String(); !strings.Contains(got, "| failed: tanksim: no bin |") || strings.Contains(got, "![") {
		t.Errorf("a failed matrix wrote:\n%s\nwant a failed row and no charts", got)
	}
}

// TestSpliceKeepsTheOtherSections: with -only, the sections not measured again are found in
// the old document whole, heading to the next heading, and the header before them.
func TestSpliceKeepsTheOtherSections(t *testing.T) {
	doc := "# Measurements\n\nmachine line\n\n## One\n\nfirst\n| a |\n\n## Two\n\nsecond\n\n## Other checks\n\nlast\n"
	if h, ok := header(doc); !ok || h != "# Measurements\n\nmachine line\n" {
		t.Errorf("header = %q, %v", h, ok)
	}
	if s, ok := sectionText(doc, "One"); !ok || s != "\n## One\n\nfirst\n| a |\n" {
		t.Errorf("section One = %q, %v", s, ok)
	}
	if s, ok := sectionText(doc, "Two"); !ok || s != "\n## Two\n\nsecond\n" {
		t.Errorf("section Two = %q, %v", s, ok)
	}
	if _, ok := sectionText(doc, "Tw"); ok {
		t.Error("a title's prefix found a section")
	}
	if _, ok := header("no sections"); ok {
		t.Error("a document with no section has a header")
	}
}

// TestMatrixSectionIsRunnable: the matrix runs tanksim from bin/ with -matrix, -json and
// -plot into the directory its charts are linked from, in both input buffer modes.
func TestMatrixSectionIsRunnable(t *testing.T) {
	cmd := strings.Join(matrix.cmd, " ")
	for _, want := range []string{"bin/tanksim", "-matrix", "-json", "-plot " + matrix.plotDir} {
		if !strings.Contains(cmd, want) {
			t.Errorf("matrix command %q lacks %q", cmd, want)
		}
	}
	if strings.Contains(cmd, "-input-buffer") {
		t.Errorf("matrix command %q picks one buffer mode; the section compares both", cmd)
	}
	if len(matrix.plots) == 0 || len(matrix.cols) == 0 {
		t.Error("the matrix section shows no chart or no column")
	}
}

// TestUnderTitle: a section measured elsewhere gets its machine line under its title.
func TestUnderTitle(t *testing.T) {
	got := underTitle("\n## One\n\nabout\n| a |\n", "**Measured on:** here.")
	if want := "\n## One\n\n**Measured on:** here.\n\nabout\n| a |\n"; got != want {
		t.Errorf("underTitle = %q, want %q", got, want)
	}
}
