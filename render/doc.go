// Package render is the tanknet window: an Ebitengine game that drives a client.Game with the
// keyboard and draws the arena, every tank, and the netcode made visible — ghosts of the
// server's and the predicted poses, a HUD of the netcode's counters, a live graph of the
// round trip and the correction, and switches that turn prediction, reconciliation and
// interpolation off to show what each one hides.
//
// Only render and cmd/tankclient import Ebitengine, which needs cgo and an X display just to
// initialise; every decision that can be made without pixels lives in render/view, where it
// is tested headless. render itself has no test files for the same reason: its tests are in
// render/e2e, which runs the real window under Xvfb.
package render
