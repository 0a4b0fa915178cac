package e2e

import (
	"context"
	"image/color"
	"math"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"tanknet/render/view"
)

// Window size for the screenshots: small enough for any Xvfb screen, with the HUD beside.
const shotW, shotH = 1000, 560

func TestScreenshotShowsArenaAndTanks(t *testing.T) {
	bin := needDisplay(t)
	w := startWorld(t, 16)
	startBots(t, w, 2)
	got := screenshotOwnTank(t, bin, w)
	shot, img, me, pose, before := got.path, got.img, got.me, got.pose, got.others
	if b := img.Bounds(); b.Dx() < shotW/2 || b.Dy() < shotH/2 {
		t.Fatalf("screenshot is %v, want about %dx%d", b, shotW, shotH)
	}
	pane := view.SingleLayout(img.Bounds().Dx(), img.Bounds().Dy(), w.arena.Width, w.arena.Height, true, true)
	f := pane.Frame
	checkStrip(t, img, pane.Strip, "the window")

	floor := count(img, f.Arena, 0, func(c color.RGBA) bool { return c == view.ArenaFloor })
	if area := int(f.Arena.W * f.Arena.H); floor < area/3 {
		t.Errorf("arena floor colour in %d of %d arena pixels, want at least a third", floor, area)
	}

	// Worked out here rather than with f.ToScreen, so a wrong flip there cannot hide: world
	// y points up, screen y down.
	toScreen := func(x, y float64) (float64, float64) {
		return f.Arena.X + x*f.Scale, f.Arena.Y + (w.arena.Height-y)*f.Scale
	}
	sx, sy := toScreen(pose.X, pose.Y)
	r0 := w.arena.TankRadius * 1.2 * f.Scale
	near := view.Rect{X: sx - r0, Y: sy - r0, W: 2 * r0, H: 2 * r0}
	mine := view.PlayerColor(me)
	if n := count(img, near, 0, close(mine)); n < 20 {
		t.Errorf("player %d's colour %v in %d pixels around (%.0f, %.0f), the tank's spawn at %v; want at least 20",
			me, mine, n, sx, sy, pose)
	}
	// And not where the tank would be if world y were not flipped.
	mx, my := toScreen(pose.X, w.arena.Height-pose.Y)
	if math.Abs(my-sy) > 4*r0 {
		if n := count(img, view.Rect{X: mx - r0, Y: my - r0, W: 2 * r0, H: 2 * r0}, 0, close(mine)); n >= 20 {
			t.Errorf("player %d's colour also at the unflipped position (%.0f, %.0f)", me, mx, my)
		}
	}
	// Bots drive anywhere, corners included, where the wall covers part of a tank and what
	// shows is mostly its lighter shades: match the tank's hue, a tank's size around the arena.
	for id := range before {
		if n := count(img, f.Arena, 2*r0, sameHue(view.PlayerColor(id))); n < 40 {
			t.Errorf("bot %d's hue (%v) in only %d pixels in and around the arena, want at least 40", id, view.PlayerColor(id), n)
		}
	}
	if t.Failed() {
		keep := filepath.Join(os.TempDir(), "tankclient-e2e-failed.png")
		if data, err := os.ReadFile(shot); err == nil && os.WriteFile(keep, data, 0o644) == nil {
			t.Logf("screenshot kept at %s", keep)
		}
	}
}

func TestUnreachableServerExits2(t *testing.T) {
	bin := needDisplay(t)
	pc, err := net.ListenPacket("udp", "127.0.0.1:0") // a port where nobody answers
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	r := runClient(t, bin, "-server", pc.LocalAddr().String(), "-timeout", "1s")
	checkFailure(t, r, 2, "no answer")
}

func TestRejectedExits2(t *testing.T) {
	bin := needDisplay(t)
	w := startWorld(t, 1)
	startBots(t, w, 1)
	r := runClient(t, bin, "-server", w.addr, "-timeout", "5s")
	checkFailure(t, r, 2, "rejected")
}

func TestServerLostExits1(t *testing.T) {
	bin := needDisplay(t)
	w := startWorld(t, 4)
	type outcome struct {
		r   result
		err error
	}
	done := make(chan outcome, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // kills the client if the test gives up early
	shot := filepath.Join(t.TempDir(), "never.png")
	go func() {
		// Far more frames than the test waits for: only losing the server ends this run.
		r, err := execClient(ctx, nil, bin, "-server", w.addr, "-screenshot", shot, "-frames", "1000000")
		done <- outcome{r, err}
	}()
	deadline := time.Now().Add(pollTimeout)
	for len(w.ids()) == 0 {
		select {
		case o := <-done:
			t.Fatalf("tankclient ended before joining: exit %d, %v; stderr:\n%s", o.r.code, o.err, o.r.stderr)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the client did not join within %v", pollTimeout)
		}
		time.Sleep(pollEvery)
	}
	// The server kicks everyone with "server shutting down" as it stops; if the kick does
	// not make it out before its socket closes, the client notices the silence instead.
	w.cancel()
	o := <-done
	if o.err != nil {
		t.Fatal(o.err)
	}
	checkFailure(t, o.r, 1, "shutting down", "lost the server")
}
