package render

import (
	"fmt"
	"strings"
	"testing"

	"tanknet/render/view"
)

// TestFitHeight: a panel exactly as high as its lines and their headings' air shows every
// line; a pixel less hides some and says so, and what it keeps still fits.
func TestFitHeight(t *testing.T) {
	var lines []view.Line
	for s := range 3 {
		lines = append(lines, view.Line{Text: fmt.Sprintf("Section %d", s), Style: view.Heading})
		for i := range 7 {
			lines = append(lines, view.Line{Text: fmt.Sprintf("line %d", i), Style: view.Plain})
		}
	}
	h := textHeight(lines) // 24 lines, 3 headings
	if got := fitHeight(lines, 80, h); len(got) != len(lines) {
		t.Errorf("a panel of %v px shows %d of %d lines; want all", h, len(got), len(lines))
	}
	got := fitHeight(lines, 80, h-1)
	if len(got) == len(lines) || textHeight(got) > h-1 || !strings.Contains(got[len(got)-1].Text, "hidden") {
		t.Errorf("a pixel short: %d lines, %v px high, last %q; want fewer, within %v px, the last saying how many are hidden",
			len(got), textHeight(got), got[len(got)-1].Text, h-1)
	}
}

// TestPanelTextWidth_HoldsFortyColumns: the HUD column beside the graph (the demo's at
// 1920x1080) is as wide as its doc says, 40 characters after the padding and the indent,
// the width the HUD's lines are written for (TestTechniqueLines). At 38, counter lines of
// 39 or 40 characters wrapped, and how many did depended on how long the game had run.
func TestPanelTextWidth_HoldsFortyColumns(t *testing.T) {
	f, err := loadFonts()
	if err != nil {
		t.Fatal(err)
	}
	g := &window{fonts: f}
	if got := g.columns(PanelTextWidth); got < 40 {
		t.Errorf("columns(PanelTextWidth %d px) = %d with %v px characters, want 40", PanelTextWidth, got, f.monoAdvance)
	}
}
