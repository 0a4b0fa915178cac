package e2e

import (
	"fmt"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tanknet/render/view"
	"tanknet/server"
)

// combatWorld is a server whose tanks survive two hits, with no spawn protection, and three
// gunner bots on it: shots and kills come within seconds.
func combatWorld(t *testing.T) *world {
	t.Helper()
	w := startWorldWith(t, 8, func(c *server.Config) {
		c.Rules.MaxHealth, c.Rules.SpawnProtection = 50, 0
	})
	startBotsFiring(t, w, 3, true)
	return w
}

// momentTries is how many gunner windows combatShot runs for its moment: on a busy machine
// a window's frames and round trips are slow, and a moment as short as a confirmed hit
// whose tracer still shows (200 ms) can pass between two frames or come too late.
const momentTries = 3

// combatShot runs a gunner window on w until the moment when, and returns its screenshot
// and where the arena is in it. A window whose wait ran out before its moment came (it says
// so) is run again, up to momentTries times; the test fails if none saw it.
func combatShot(t *testing.T, bin string, w *world, when string, extra ...string) (*image.RGBA, view.Frame, string) {
	t.Helper()
	shot := filepath.Join(t.TempDir(), when+".png")
	args := append([]string{"-server", w.addr, "-name", "gunner", "-gunner", "-screenshot", shot, "-frames", "120",
		"-screenshot-when", when, "-width", fmt.Sprint(shotW), "-height", fmt.Sprint(shotH)}, extra...)
	for try := 1; ; try++ {
		r := runClient(t, bin, args...)
		if r.code != 0 {
			t.Fatalf("tankclient exited %d; stderr:\n%s", r.code, r.stderr)
		}
		missed := strings.Contains(r.stdout+r.stderr, "did not come within")
		if !missed {
			break
		}
		if try == momentTries {
			t.Fatalf("the moment %q never came in %d windows; the last said:\n%s%s", when, try, r.stdout, r.stderr)
		}
		t.Logf("window %d: the moment %q did not come; trying again", try, when)
	}
	img := readPNG(t, shot)
	return img, view.Layout(img.Bounds().Dx(), img.Bounds().Dy(), w.arena.Width, w.arena.Height, true), shot
}

// keepOnFailure copies a failed test's screenshot where a person can look at it.
func keepOnFailure(t *testing.T, shot, name string) {
	if t.Failed() {
		keep := filepath.Join(os.TempDir(), name)
		if data, err := os.ReadFile(shot); err == nil && os.WriteFile(keep, data, 0o644) == nil {
			t.Logf("screenshot kept at %s", keep)
		}
	}
}

// tracerish matches view.TracerColor faded over the floor: bright, pale yellow, blue well
// above any tank's yellow.
func tracerish(c color.RGBA) bool {
	d := int(c.R) - int(c.G)
	return c.R > 0x80 && d > -0x20 && d < 0x20 && c.B > 0x50 && int(c.B) < int(c.R)-0x30
}

// exactly matches one colour.
func exactly(want color.RGBA) func(color.RGBA) bool {
	return func(c color.RGBA) bool { return c == want }
}

// TestScreenshotShowsShotHitMarkerAndGhost waits for the window's own shot to be confirmed
// while its tracer still shows: the tracer, the red hit marker, health bars and the white
// outline of the server's rewound target must all be in the arena.
func TestScreenshotShowsShotHitMarkerAndGhost(t *testing.T) {
	bin := needDisplay(t)
	w := combatWorld(t)
	img, f, shot := combatShot(t, bin, w, view.MomentHit)
	defer keepOnFailure(t, shot, "tankclient-e2e-hit-failed.png")
	for _, c := range []struct {
		what  string
		match func(color.RGBA) bool
		least int
	}{
		{"tracer", tracerish, 10},
		{"hit marker", exactly(view.HitMark), 6},
		{"health bar", func(c color.RGBA) bool { return c == view.HealthGood || c == view.HealthLow }, 20},
	} {
		if n := count(img, f.Arena, 0, c.match); n < c.least {
			t.Errorf("%s: %d pixels in the arena, want at least %d", c.what, n, c.least)
		}
	}
	// The ghost is a white outline of the target around where the shell stopped: look for it
	// within two tank lengths of the hit marker's centre.
	x, y, ok := centroid(img, f.Arena, exactly(view.HitMark))
	if !ok {
		return // reported above
	}
	r := 2 * 2 * w.arena.TankRadius * f.Scale
	near := view.Rect{X: x - r, Y: y - r, W: 2 * r, H: 2 * r}
	if n := count(img, near, 0, whiteish); n < 8 {
		t.Errorf("rewound ghost (white outline): %d whitish pixels around the hit marker at (%.0f, %.0f), want at least 8", n, x, y)
	}
}

// whiteish matches the ghost's white outline, antialiased and filtered over the floor.
func whiteish(c color.RGBA) bool { return min(c.R, c.G, c.B) >= 0xb0 }

// centroid returns the mean position of the pixels in r that match, and false when none do.
func centroid(img *image.RGBA, r view.Rect, match func(color.RGBA) bool) (float64, float64, bool) {
	var sx, sy float64
	n := 0
	for y := int(r.Y); y < int(r.Y+r.H); y++ {
		for x := int(r.X); x < int(r.X+r.W); x++ {
			if match(img.RGBAAt(x, y)) {
				sx, sy, n = sx+float64(x), sy+float64(y), n+1
			}
		}
	}
	if n == 0 {
		return 0, 0, false
	}
	return sx / float64(n), sy / float64(n), true
}

// TestScreenshotShowsWreckRespawnAndScoreboard waits until the window's tank is destroyed,
// with the scoreboard held open: the wreck, the respawn banner and the scoreboard box must
// show.
func TestScreenshotShowsWreckRespawnAndScoreboard(t *testing.T) {
	bin := needDisplay(t)
	w := combatWorld(t)
	img, f, shot := combatShot(t, bin, w, view.MomentDestroyed, "-scores")
	defer keepOnFailure(t, shot, "tankclient-e2e-destroyed-failed.png")
	if n := count(img, f.Arena, 0, close(view.WreckColor)); n < 20 {
		t.Errorf("wreck colour in %d arena pixels, want at least 20", n)
	}
	if n := count(img, f.Arena, 0, close(view.ErrorText)); n < 20 {
		t.Errorf("respawn banner colour in %d arena pixels, want at least 20", n)
	}
	centre := view.Rect{X: f.Arena.X + f.Arena.W/2 - 40, Y: f.Arena.Y + f.Arena.H/2 - 20, W: 80, H: 40}
	if n := count(img, centre, 0, exactly(view.BoxFill)); n < 400 {
		t.Errorf("scoreboard box colour in %d pixels at the arena's centre, want at least 400", n)
	}
}
