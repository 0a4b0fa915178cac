package main

import (
	"bytes"
	"errors"
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
			{"good", []string{"bin/tanksim", "-net", "wifi-bad"}},
			{"bad", []string{"bin/tanksim", "-net", "nowhere"}},
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

// TestSectionsAreRunnable: every command runs a program from bin/ (or one under xvfb-run) and
// asks for a JSON report, and every row fills every column's header.
func TestSectionsAreRunnable(t *testing.T) {
	for _, s := range sections {
		if s.title == "" || s.about == "" || len(s.rows) == 0 || len(s.cols) == 0 {
			t.Errorf("section %q is incomplete", s.title)
		}
		for _, r := range s.rows {
			cmd := strings.Join(r.cmd, " ")
			if !strings.Contains(cmd, "bin/tanksim") && !strings.Contains(cmd, "bin/tankclient") {
				t.Errorf("%s / %s: %q runs no program from bin/", s.title, r.label, cmd)
			}
			if !strings.Contains(cmd, "-json") && !strings.Contains(cmd, "-frame-report") {
				t.Errorf("%s / %s: %q prints no JSON report", s.title, r.label, cmd)
			}
		}
	}
}
