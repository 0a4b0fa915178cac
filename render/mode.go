package render

import (
	"image"
	"io"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"tanknet/netcode"
	"tanknet/render/view"
)

// mode is what tells the window's uses apart: the live window (live.go), the demo
// (demo.go), a client recording's replay (replay.go) and a recording set's three panes
// (match_replay.go). The window (window.go) runs the frame and draws the client panes it is
// given; a mode drives those panes and draws what it adds. The guided tour (tour.go) runs on
// top of any of them, through the stage a mode gives it.
//
// The single-pane modes embed onePane and the three-pane ones threePanes (layouts.go), which
// lay out the panes and answer the questions that follow from the layout; a mode whose match
// the window cannot change embeds fixed for the rest.
type mode interface {
	// begin runs at the window's first Update.
	begin(w *window) error
	// drive turns the driving keys held this tick into the panes' inputs.
	drive(w *window)
	// key handles the mode's own switch keys pressed this tick (slow motion, contact, bots);
	// the window calls it only when none of its own was pressed.
	key(w *window, pressed func(ebiten.Key) bool, shift bool)
	// step runs the panes one tick at now.
	step(w *window, now time.Time) error
	// layout places the panes in a window of bounds b, appending them to dst.
	layout(w *window, b image.Rectangle, dst []view.Pane) []view.Pane
	// paneIndex returns the layout index of client pane i.
	paneIndex(i int) int
	// targets returns the panes a technique or network key acts on.
	targets(w *window) []*clientPane
	// draw draws what the mode adds among the panes (the server's), under the overlays.
	draw(w *window, dst *ebiten.Image, full bool)
	// drawOver draws what the mode adds over everything (the playback bar).
	drawOver(w *window, dst *ebiten.Image)
	// help is the key help (F1).
	help() []view.Line
	// expandArea is where client pane i's whole HUD goes (E), in a window win.
	expandArea(w *window, i int, win view.Rect) view.Rect
	// reportShot writes what a screenshot with details reports beside the HUDs.
	reportShot(w *window, out io.Writer)
	stage
}

// stage is what a mode lets the guided tour see and change beyond the panes' switches.
type stage interface {
	// features are the features the tour can show here (view.Scene.Requires).
	features() []string
	// caption is a scene's caption as this mode shows it.
	caption(s view.Scene) []string
	// setNet sets client pane i's network and inputs for scene s.
	setNet(i int, p *clientPane, s view.Scene)
	// far returns the far player, whose shots and trail a scene counts; ok false with none.
	far(w *window) (p *clientPane, ok bool)
	// tourLegend reports whether the tour's caption goes in the mode's own legend (the
	// server pane's) rather than at the top of the HUD.
	tourLegend() bool
	// slowFactor is the slow motion in force (1: real time); setSlow changes it, where the
	// mode can.
	slowFactor() int
	setSlow(w *window, factor int)
	// contact returns the room's contact mode, ok false where the window cannot switch it;
	// setContact switches it.
	contact(w *window) (m netcode.ContactMode, ok bool)
	setContact(w *window, m netcode.ContactMode)
	// holdFire stops or lets the bots' fire.
	holdFire(hold bool)
	// actors are the near and far players a scene drives by itself (a scripted drive, the
	// gunner, the ram): the live demo's; ok false elsewhere.
	actors(w *window) (near, far *clientPane, ok bool)
}
