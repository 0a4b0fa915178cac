// Package render is the tanknet window: an Ebitengine game that drives a client.Game with the
// keyboard and draws the arena, every tank, and the netcode made visible — ghosts of the
// server's and the predicted poses, a HUD of the netcode's counters, a live graph of the
// round trip and the correction, and switches that turn prediction, reconciliation and
// interpolation off to show what each one hides.
//
// The demo's guided tour (tour.go) sets each scene and does what the scene needs by itself
// (a scripted drive, a gunner, the tick trail), and slow motion (slowmo.go) runs the whole
// demo slower on one clock.
//
// RunReplay opens the window on a client recording and RunMatchReplay on a demo's recording
// set, the three panes on one clock (render/matchplay, headless, decides what each pane shows
// when); both share the playback bar (replay.go).
//
// Only render and cmd/tankclient import Ebitengine, which needs cgo and an X display just to
// initialise; every decision that can be made without pixels lives in render/view, where it
// is tested headless. render itself has no test files for the same reason: its tests are in
// render/e2e, which runs the real window under Xvfb.
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
