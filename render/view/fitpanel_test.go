package view

import (
	"strings"
	"testing"
)

// TestFitPanel: nothing is dropped silently. Lines wider than the panel wrap; when the rows
// run out, the last row counts what is hidden and names the key that shows it.
func TestFitPanel(t *testing.T) {
	lines := []Line{
		{"Techniques", Heading},
		{"P prediction on   R reconciliation on", Plain},
		{"a secondary remark", Dim},
		{"short", Plain},
	}
	tests := []struct {
		name       string
		cols, rows int
		want       []string
	}{
		{"fits", 40, 10, []string{"Techniques", "P prediction on   R reconciliation on", "a secondary remark", "short"}},
		{"wraps at a space", 20, 10, []string{"Techniques", "P prediction on   R", "  reconciliation on", "a secondary remark", "short"}},
		{"too few rows: Dim first, then a count", 40, 3, []string{"Techniques", "P prediction on   R reconciliation on", "+2 lines hidden: E shows all"}},
		{"one row: only the count", 40, 1, []string{"+4 lines hidden: E shows all"}},
		{"no room", 40, 0, nil},
	}
	for _, tt := range tests {
		got := FitPanel(lines, tt.cols, tt.rows)
		var texts []string
		for _, l := range got {
			texts = append(texts, l.Text)
			if len([]rune(l.Text)) > tt.cols {
				t.Errorf("%s: line %q is wider than %d columns", tt.name, l.Text, tt.cols)
			}
		}
		if strings.Join(texts, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%s: FitPanel(%d cols, %d rows) = %q, want %q", tt.name, tt.cols, tt.rows, texts, tt.want)
		}
	}
}
