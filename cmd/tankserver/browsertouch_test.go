package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/internal/cdp"
	"tanknet/netcode"
)

// phoneLayouts are the screens the touch controls are laid out for: an upright phone and
// the same phone on its side (CSS pixels).
var phoneLayouts = []struct {
	name          string
	width, height int
}{{"portrait", 390, 844}, {"landscape", 844, 390}}

// touchInTab plays the page as a phone would: Chromium emulates a 390x844 touch screen, and
// the test drags the stick straight up with one finger and, still holding it, taps fire with
// another. A native watcher in the same match (joined first, so the page's tank spawns at the
// far corner, clear of it) sees the page's tank drive forward along its heading without
// turning, and the server's word of its shot. In both layouts the stick and the button are
// (and the HUD button) inside the screen, apart, and off the game's canvas;
// TANKNET_TOUCH_SHOTS names a folder for a screenshot of each (docs/phone-*.png), the
// landscape one after two taps of HUD (the panel starts put away on a touch screen).
func touchInTab(t *testing.T, ctx context.Context, b *cdp.Browser, webDir string) {
	page, addr, _ := webGame(t, ctx, webDir, "")
	w := watch(t, ctx, addr, "touch")

	session, err := b.OpenPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Call(ctx, session, "Page.close", nil, nil)
	phone(t, ctx, b, session, phoneLayouts[0].width, phoneLayouts[0].height)
	if err := b.Call(ctx, session, "Emulation.setTouchEmulationEnabled", map[string]any{"enabled": true, "maxTouchPoints": 5}, nil); err != nil {
		t.Fatal(err)
	}
	phoneLobby(t, ctx, b, session, page)
	navigate(t, ctx, b, session, page+"?name=touch")
	// Polled inside the page; asked again while the lobby's document is still the one there
	// (its promise ends with it).
	shown := `new Promise((done) => {
		const look = () => document.body.classList.contains('touch') ? done('shown') : setTimeout(look, 50);
		look();
	})`
	for evalString(t, ctx, b, session, shown) != "shown" {
		if ctx.Err() != nil {
			t.Fatal("the touch controls never showed")
		}
	}
	start := w.await(t, ctx, "the page's tank in the watcher's view", func(s watched) bool { return s.seen })

	c := controlRects(t, ctx, b, session)
	stick := point{c.Stick.X + c.Stick.W/2, c.Stick.Y + c.Stick.H/2}
	up := point{stick.x, stick.y - c.Stick.H/2} // the rim, straight up: full forward
	fire := point{c.Fire.X + c.Fire.W/2, c.Fire.Y + c.Fire.H/2}
	touch(t, ctx, b, session, "touchStart", stick)
	touch(t, ctx, b, session, "touchMove", up)
	touch(t, ctx, b, session, "touchStart", up, fire) // a second finger, the first still down
	touch(t, ctx, b, session, "touchMove", up)        // fire lifted, the stick still held
	const far = 2.0                                   // world units: several ticks of driving
	moved := w.await(t, ctx, "the page's tank to drive "+fmt.Sprint(far)+" units", func(s watched) bool {
		return math.Hypot(s.pose.X-start.pose.X, s.pose.Y-start.pose.Y) >= far
	})
	touch(t, ctx, b, session, "touchEnd")
	fired := w.await(t, ctx, "the server's word of the page's shot", func(s watched) bool { return s.shots > 0 })

	dx, dy := moved.pose.X-start.pose.X, moved.pose.Y-start.pose.Y
	along := dx*math.Cos(start.pose.Heading) + dy*math.Sin(start.pose.Heading)
	if along < 0.95*math.Hypot(dx, dy) || math.Abs(moved.pose.Heading-start.pose.Heading) > 1e-3 {
		t.Errorf("with the stick pushed straight up the tank went from %v to %v: want it driven forward along its heading, not turned", start.pose, moved.pose)
	}
	t.Logf("touch: the stick drove the tank from %v to %v; the watcher saw %d shot(s) of it", start.pose, moved.pose, fired.shots)

	for i, l := range phoneLayouts {
		if i > 0 {
			phone(t, ctx, b, session, l.width, l.height)
		}
		c := awaitLayout(t, ctx, b, session, l.width, l.height)
		if problem := c.problem(); problem != "" {
			t.Errorf("%s %dx%d: %s (stick %+v, fire %+v, canvas %+v)", l.name, l.width, l.height, problem, c.Stick, c.Fire, c.Canvas)
		}
		if i > 0 { // the HUD button shows the panel (put away when the controls first showed) and hides it again
			for range 2 {
				touch(t, ctx, b, session, "touchStart", point{c.HUD.X + c.HUD.W/2, c.HUD.Y + c.HUD.H/2})
				touch(t, ctx, b, session, "touchEnd")
				time.Sleep(200 * time.Millisecond) // a frame or more: each tap is its own
			}
		}
		if dir := os.Getenv("TANKNET_TOUCH_SHOTS"); dir != "" { // to look at them
			shot, err := b.Screenshot(ctx, session)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "phone-"+l.name+".png"), shot, 0o644); err != nil {
				t.Error(err)
			}
		}
	}
}

// phoneLobby opens the lobby on the phone: its fields and buttons are a thumb's size (44
// CSS pixels high at least, the common guideline for touch targets) and fit the screen's
// width.
func phoneLobby(t *testing.T, ctx context.Context, b *cdp.Browser, session, page string) {
	t.Helper()
	navigate(t, ctx, b, session, page)
	waitRooms(t, ctx, b, session, "default")
	sizes := `JSON.stringify(['#lobby-name', '#lobby-room', '#lobby-new', '#rooms button'].map((sel) => {
		const b = document.querySelector(sel).getBoundingClientRect();
		return {sel, X: b.x, W: b.width, H: b.height};
	}))`
	var got []struct {
		Sel     string
		X, W, H float64
	}
	if err := json.Unmarshal([]byte(evalString(t, ctx, b, session, sizes)), &got); err != nil {
		t.Fatalf("the lobby's sizes: %v", err)
	}
	for _, e := range got {
		if e.H < 44 || e.X < 0 || e.X+e.W > float64(phoneLayouts[0].width) {
			t.Errorf("on a %dpx wide phone the lobby's %s is %.0f px high at x %.0f..%.0f: want at least 44 px, inside the screen", phoneLayouts[0].width, e.Sel, e.H, e.X, e.X+e.W)
		}
	}
	if dir := os.Getenv("TANKNET_TOUCH_SHOTS"); dir != "" {
		if shot, err := b.Screenshot(ctx, session); err == nil {
			os.WriteFile(filepath.Join(dir, "phone-lobby.png"), shot, 0o644)
		}
	}
}

// phone makes session's page a mobile screen of width x height CSS pixels.
func phone(t *testing.T, ctx context.Context, b *cdp.Browser, session string, width, height int) {
	t.Helper()
	metrics := map[string]any{"width": width, "height": height, "deviceScaleFactor": 1, "mobile": true}
	if err := b.Call(ctx, session, "Emulation.setDeviceMetricsOverride", metrics, nil); err != nil {
		t.Fatal(err)
	}
}

type point struct{ x, y float64 }

// touch sends a touch event whose fingers are at points (CDP pairs them with the fingers of
// the previous event by order: a finger missing from a later event is lifted).
func touch(t *testing.T, ctx context.Context, b *cdp.Browser, session, kind string, points ...point) {
	t.Helper()
	fingers := []map[string]any{}
	for i, p := range points {
		fingers = append(fingers, map[string]any{"x": p.x, "y": p.y, "id": i, "radiusX": 8, "radiusY": 8, "force": 1})
	}
	if err := b.Call(ctx, session, "Input.dispatchTouchEvent", map[string]any{"type": kind, "touchPoints": fingers}, nil); err != nil {
		t.Fatalf("%s at %v: %v", kind, points, err)
	}
}

// rect is an element's bounding rectangle, in CSS pixels.
type rect struct{ X, Y, W, H float64 }

func (r rect) inside(w, h float64) bool {
	return r.W > 0 && r.H > 0 && r.X >= 0 && r.Y >= 0 && r.X+r.W <= w && r.Y+r.H <= h
}

func (r rect) overlaps(o rect) bool {
	return r.X < o.X+o.W && o.X < r.X+r.W && r.Y < o.Y+o.H && o.Y < r.Y+r.H
}

// controls is where the page put its touch controls and the game's canvas.
type controls struct {
	Width, Height            float64 // the viewport
	Stick, Fire, HUD, Canvas rect
}

// problem says what is wrong with the layout, "" when nothing is: the three controls inside
// the viewport, none over another or over the canvas, the stick on the left half and fire
// on the right, and a canvas of some size.
func (c controls) problem() string {
	switch {
	case !c.Stick.inside(c.Width, c.Height) || !c.Fire.inside(c.Width, c.Height) || !c.HUD.inside(c.Width, c.Height):
		return "a control is outside the screen"
	case c.Stick.overlaps(c.Fire) || c.HUD.overlaps(c.Stick) || c.HUD.overlaps(c.Fire):
		return "two controls overlap"
	case c.Stick.overlaps(c.Canvas) || c.Fire.overlaps(c.Canvas) || c.HUD.overlaps(c.Canvas):
		return "a control covers the game's canvas"
	case c.Stick.X+c.Stick.W > c.Width/2 || c.Fire.X < c.Width/2:
		return "want the stick on the left and fire on the right"
	case c.Canvas.W < c.Width/2 || c.Canvas.H < c.Height/2:
		return "the game's canvas is smaller than half the screen"
	}
	return ""
}

// controlRects reads the layout of the page in session.
func controlRects(t *testing.T, ctx context.Context, b *cdp.Browser, session string) controls {
	t.Helper()
	expr := `(() => {
		const r = (sel) => { const b = document.querySelector(sel).getBoundingClientRect(); return {X: b.x, Y: b.y, W: b.width, H: b.height}; };
		return JSON.stringify({Width: innerWidth, Height: innerHeight, Stick: r('.touch-stick'), Fire: r('.touch-fire'), HUD: r('.touch-hud'), Canvas: r('canvas')});
	})()`
	var c controls
	if err := json.Unmarshal([]byte(evalString(t, ctx, b, session, expr)), &c); err != nil {
		t.Fatalf("the page's layout: %v", err)
	}
	return c
}

// awaitLayout reads the page's layout once its viewport is width x height (a new device
// metric reaches the page's layout at its next frame).
func awaitLayout(t *testing.T, ctx context.Context, b *cdp.Browser, session string, width, height int) controls {
	t.Helper()
	for {
		c := controlRects(t, ctx, b, session)
		if c.Width == float64(width) && c.Height == float64(height) {
			return c
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the page's viewport stayed %vx%v, want %dx%d", c.Width, c.Height, width, height)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// watched is what the watcher last saw of the tank it watches.
type watched struct {
	seen  bool
	pose  netcode.Pose
	shots int // shots of it the server told the watcher of
}

// watcher is a native client standing still in a match, watching the tank of one name.
type watcher struct {
	mu   sync.Mutex
	last watched
	id   uint32
}

// watch joins the game at addr as a native client that stands still and watches the tank
// named name, until t's cleanup.
func watch(t *testing.T, ctx context.Context, addr, name string) *watcher {
	t.Helper()
	sess, err := client.DialRoom(ctx, addr, "watcher", "", nil, 20*time.Second)
	if err != nil {
		t.Fatalf("the watcher could not join: %v", err)
	}
	runDone := make(chan error, 1)
	go func() { runDone <- sess.Run() }()
	w := new(watcher)
	wctx, stop := context.WithCancel(ctx)
	loopDone := make(chan struct{})
	go func() {
		defer close(loopDone)
		g := client.NewGame(sess, client.DefaultOptions(), time.Now())
		ticker := time.NewTicker(time.Second / 60)
		defer ticker.Stop()
		shots := map[time.Duration]bool{}
		for {
			select {
			case <-wctx.Done():
				return
			case now := <-ticker.C:
				if g.Update(now, netcode.Input{}) != nil {
					return
				}
				w.mu.Lock()
				for id, r := range g.Remotes() {
					if r.Name == name {
						w.id, w.last.seen, w.last.pose = id, true, r.Pose
					}
				}
				for _, tr := range g.Tracers(g.Now()) {
					if w.id != 0 && tr.ShooterID == w.id {
						shots[tr.At] = true
					}
				}
				w.last.shots = len(shots)
				w.mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() {
		stop()
		<-loopDone
		sess.Close("watcher done")
		<-runDone
	})
	return w
}

// await polls the watcher until ok holds for what it saw, and returns that; it fails t,
// saying it waited for what, when ctx ends first.
func (w *watcher) await(t *testing.T, ctx context.Context, what string, ok func(watched) bool) watched {
	t.Helper()
	for {
		w.mu.Lock()
		s := w.last
		w.mu.Unlock()
		if ok(s) {
			return s
		}
		select {
		case <-ctx.Done():
			t.Fatalf("waited for %s; the watcher saw %+v", what, s)
		case <-time.After(20 * time.Millisecond):
		}
	}
}
