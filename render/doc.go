// Package render is the tanknet window: an Ebitengine game that drives a client.Game with the
// keyboard and draws the arena, every tank, and the netcode made visible — ghosts of the
// server's and the predicted poses, a HUD of the netcode's counters, a live graph of the
// round trip and the correction, and switches that turn prediction, reconciliation and
// interpolation off to show what each one hides.
//
// # A drawing core and one mode per use
//
// The window (window.go, the ebiten.Game) is the drawing core: each tick it reads the keys
// that switch what is drawn (keys.go) and has its mode drive the client panes (pane.go);
// each frame it draws those panes where the mode lays them out (pane_draw.go) and lets the
// mode draw what it adds. A mode (mode.go) is one use of the window, with only the state
// that use needs:
//
//   - liveWindow (live.go, Run): one player's session; the keys or Options.Bot drive it.
//     The browser page runs it with worker=0 (cmd/tankclient/web_js.go). Its pane's game, like each
//     of the demo's two, runs on a client.Runner between frames; the window holds the
//     runners' locks across each Update and Draw (window.go: hold, release).
//   - demo (demo.go, RunDemo): the near and far players' sessions and the server's truth
//     between them (server_pane.go), with the demo's bots, contact switch and slow motion.
//   - replay (replay.go, RunReplay): a client recording drives the one pane, under the
//     playback bar.
//   - mirror (mirror.go, RunMirror): the browser page's game, which runs in its worker
//     (client/tabworker): the worker's recording, stepped to its newest frame every tick
//     (client.Mirror), drives the one pane, and the keys go back to the worker.
//   - matchReplay (match_replay.go, RunMatchReplay): a demo's recording set, the three panes
//     on one clock (render/matchplay, headless, decides what each pane shows when), with the
//     server's truth rebuilt from its recording and the same playback bar.
//
// The single-pane modes embed onePane and the three-pane ones threePanes (layouts.go), which
// lay the panes out and answer what follows from the layout (which pane a key acts on, the
// help, where the tour's caption goes). The guided tour (tour.go) runs on top of whichever
// mode (O works in each): it sets each scene's switches on the panes and asks the mode's
// stage for the rest, so on the demo it slows the match, switches contact and does what a
// scene needs by itself (tour_script.go: a scripted drive, a gunner, the tick trail), and in
// a window that cannot, it does not. Each mode has a test of its own (live_test.go,
// demo_test.go, replay_test.go, match_replay_test.go, tour_test.go) that runs it on a window
// never opened. Adding a use of the window is adding a mode; the core does not ask which
// mode it runs.
//
// Only render and cmd/tankclient import Ebitengine, which needs cgo and an X display just to
// initialise; every decision that can be made without pixels lives in render/view, where it
// is tested headless. render's own tests check the modes' decisions without opening a window
// but still need a display to start Ebitengine (xvfb-run); render/e2e runs the real window
// under Xvfb.
//
// # How a frame is drawn (keep it this way when adding to it)
//
// Virtual machines, remote desktops and Xvfb render in software, where a frame costs about
// the pixels it touches plus a few draw calls per vector path. So:
//
//   - On an arena larger than the view (camera.go) a camera follows the local tank and a
//     minimap shows the field; everything moves with the camera, so those frames are
//     painted whole.
//   - Anything that does not move is painted once into a cached image: the backdrop (the
//     window background and every arena, see backdrop), text (textCache for name tags and
//     banners, textLayer for blocks such as the HUD that are repainted only when a line
//     changes), and tank sprites (sprites, one image per colour and style at the current
//     scale). Vector paths (fillPath, strokePath) are only for painting those images.
//   - Per frame, things are drawn from those images with a transform (DrawImage with GeoM),
//     or as plain quads batched into one DrawTriangles call (lineBatch) for graphs and
//     marks. Ebitengine packs small images into one texture and merges consecutive draws
//     from it, so a frame is a handful of draw calls whatever the number of tanks.
//   - The screen is not cleared between frames. A frame either copies the whole backdrop
//     (after a layout change, or with something over the arena that is not tracked) or only
//     repairs, from the backdrop, the rectangles the previous frame drew moving things into
//     (damage). Whatever moves must be drawn through drawSprite or drawDamaging, or recorded
//     with damage.add, or it leaves a trail.
//   - Decisions (where labels go, which pose to draw, the layout) are made in render/view by
//     functions with tests; the draw code only draws them.
//
// A -screenshot run prints the frame rate and the frame-time p99 when it ends, and
// tankclient -cpuprofile writes a CPU profile, so a change's cost can be measured.
package render
