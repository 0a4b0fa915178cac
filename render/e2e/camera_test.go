package e2e

import (
	"image/color"
	"testing"

	"tanknet/netcode"
	"tanknet/render/view"
	"tanknet/server"
)

// TestScreenshotLargeArenaFollowsTheTank plays the large arena, which no window shows whole:
// the view is centred on our tank wherever it spawned, and the minimap in the view's
// top-right corner shows the field's obstacles and our tank's dot where it is on the field.
func TestScreenshotLargeArenaFollowsTheTank(t *testing.T) {
	bin := needDisplay(t)
	w := startWorldWith(t, 16, func(c *server.Config) { c.Arena = netcode.LargeArena() })
	startBots(t, w, 1)
	got := screenshotOwnTank(t, bin, w)
	shot, img, me, pose := got.path, got.img, got.me, got.pose
	f := view.SingleLayout(img.Bounds().Dx(), img.Bounds().Dy(), netcode.ViewWidth, netcode.ViewHeight, true, true).Frame
	mine := view.PlayerColor(me)

	// Nobody pressed a key: our tank is where it spawned, drawn at the view's centre.
	cx, cy := f.Arena.X+f.Arena.W/2, f.Arena.Y+f.Arena.H/2
	r0 := w.arena.TankRadius * 1.2 * f.Scale
	if n := count(img, view.Rect{X: cx - r0, Y: cy - r0, W: 2 * r0, H: 2 * r0}, 0, close(mine)); n < 20 {
		t.Errorf("our colour %v in %d pixels at the view's centre (%.0f, %.0f); want the followed tank there", mine, n, cx, cy)
	}

	// The minimap: the whole 160 x 100 field, at the bottom of the side panel when the HUD
	// text leaves room there, else in the view's top-right corner (view.MinimapPlaces), with
	// obstacles, and our dot at our place on the field.
	obstacles := func(r view.Rect) int {
		return count(img, r, 0, func(c color.RGBA) bool { return c == view.Obstacle })
	}
	panel, ok, mini := view.MinimapPlaces(f, w.arena.Width, w.arena.Height)
	if ok && obstacles(panel) > obstacles(mini) {
		mini = panel
	}
	if n := obstacles(mini); n < 50 {
		t.Errorf("obstacle colour in %d minimap pixels, want the field's obstacles drawn small", n)
	}
	mx, my, s := mini.X, mini.Y, mini.W/w.arena.Width
	dx, dy := mx+pose.X*s, my+(w.arena.Height-pose.Y)*s
	if n := count(img, view.Rect{X: dx - 4, Y: dy - 4, W: 8, H: 8}, 0, close(mine)); n < 9 {
		t.Errorf("our colour in %d pixels at the minimap's (%.0f, %.0f) for %v, want our dot", n, dx, dy, pose)
	}
	keepOnFailure(t, shot, "tankclient-e2e-large-failed.png")
}
