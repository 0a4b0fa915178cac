package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// layoutShots is where TestDemoLayoutAtThreeSizes leaves its screenshots for a person to
// look at.
var layoutShots = filepath.Join(os.TempDir(), "tanknet-layout")

// TestDemoLayoutAtThreeSizes runs the demo with bots at 800x450, 1280x720 and 1920x1080 and
// keeps the screenshots (paths in the log). Every client pane's HUD reports its lines: a
// line it could not fit is counted on the panel (FitPanel), never dropped silently, and at
// 1920x1080 the whole HUD fits.
func TestDemoLayoutAtThreeSizes(t *testing.T) {
	bin := needDisplay(t)
	if err := os.MkdirAll(layoutShots, 0o755); err != nil {
		t.Fatal(err)
	}
	hud := regexp.MustCompile(`tankclient: hud pane (\d): (\d+) lines, (\d+) hidden and counted`)
	for _, size := range [][2]int{{800, 450}, {1280, 720}, {1920, 1080}} {
		shot := filepath.Join(layoutShots, fmt.Sprintf("demo-%dx%d.png", size[0], size[1]))
		r := runClient(t, bin, "-demo", "-server", "127.0.0.1:0", "-bots", "6", "-screenshot", shot, "-screenshot-details", "-frames", "120",
			"-width", fmt.Sprint(size[0]), "-height", fmt.Sprint(size[1]))
		if r.code != 0 {
			t.Fatalf("%dx%d: tankclient -demo exited %d; stderr:\n%s", size[0], size[1], r.code, r.stderr)
		}
		img := readPNG(t, shot)
		if b := img.Bounds(); b.Dx() != size[0] || b.Dy() != size[1] {
			t.Errorf("%dx%d: the screenshot is %dx%d", size[0], size[1], b.Dx(), b.Dy())
		}
		t.Logf("%dx%d: %s", size[0], size[1], shot)
		panes := hud.FindAllStringSubmatch(r.stdout, -1)
		if len(panes) != 2 {
			t.Fatalf("%dx%d: %d HUD reports, want one per client pane; stdout:\n%s", size[0], size[1], len(panes), r.stdout)
		}
		for _, m := range panes {
			lines, _ := strconv.Atoi(m[2])
			hidden, _ := strconv.Atoi(m[3])
			if lines < 15 {
				t.Errorf("%dx%d pane %s: the HUD has only %d lines", size[0], size[1], m[1], lines)
			}
			if size[0] == 1920 && hidden != 0 {
				t.Errorf("1920x1080 pane %s: %d of %d HUD lines hidden, want all shown", m[1], hidden, lines)
			}
		}
	}
}
