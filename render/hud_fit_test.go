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

// TestLayoutHUD_GraphUnderTheText: in a tall, narrow panel (the window's and the page's,
// beside the arena) the graph goes under all the text: whole when there is room, shorter
// when there is less but at least minGraphUnder, and none below that, the text never cut
// for it.
func TestLayoutHUD_GraphUnderTheText(t *testing.T) {
	f, err := loadFonts()
	if err != nil {
		t.Fatal(err)
	}
	g := &window{fonts: f}
	var lines []view.Line
	for s := range 4 {
		lines = append(lines, view.Line{Text: fmt.Sprintf("Section %d", s), Style: view.Heading})
		for i := range 6 {
			lines = append(lines, view.Line{Text: fmt.Sprintf("line %d", i), Style: view.Plain})
		}
	}
	text := textHeight(lines)
	const w = 370 // too narrow to put the graph beside the text
	// under lays the lines out in a panel with spare pixels under the text for the graph.
	under := func(spare float64) hudLayout {
		return g.layoutHUD(view.Rect{X: 0, Y: 0, W: w, H: text + 3*padding + 2*lineHeight + spare}, lines)
	}
	for _, tt := range []struct {
		name   string
		spare  float64
		graphH float64 // 0: none
	}{
		{"room for a whole graph", view.GraphHeight + 50, view.GraphHeight},
		{"exactly a whole graph", view.GraphHeight, view.GraphHeight},
		{"room for a shorter graph", 80, 80},
		{"the shortest graph", minGraphUnder, minGraphUnder},
		{"too little room: no graph", minGraphUnder - 1, 0},
	} {
		l := under(tt.spare)
		if l.beside || l.graph.H != tt.graphH || len(l.lines) != len(lines) {
			t.Errorf("%s: beside %v, graph %v px high, %d of %d lines; want under, %v px, every line",
				tt.name, l.beside, l.graph.H, len(l.lines), len(lines), tt.graphH)
			continue
		}
		if tt.graphH > 0 && l.graph.Y+l.graph.H > l.panel.Y+l.panel.H {
			t.Errorf("%s: the graph (%+v) ends below its panel (%+v)", tt.name, l.graph, l.panel)
		}
	}
}
