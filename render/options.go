package render

import (
	"errors"
	"fmt"
	"image"
	"io"
	"time"

	"tanknet/client"
	"tanknet/linksim"
	"tanknet/render/view"
)

// Options configure the window.
type Options struct {
	// Title is the window title; "" means "tanknet".
	Title string
	// Width and Height are the initial window size in logical pixels; the window stays
	// resizable. Zero means 1200 x 580.
	Width, Height int
	// Position, if set, is where the window's top-left corner goes on the screen.
	Position *image.Point
	// Game tunes the netcode.
	Game client.Options
	// Techniques are the switches at start; see view.Techniques.
	Techniques view.Techniques
	// Net, if set, is the link conditioner under the session, so the network presets can be
	// switched from the keyboard. Nil shows conditioning as unavailable.
	Net *Network
	// ScreenshotPath, if set, makes the window draw ScreenshotFrames frames, write a PNG of
	// what it shows there and close.
	ScreenshotPath   string
	ScreenshotFrames int
	// ScreenshotDetails makes a screenshot run also report, one line each, the server's
	// tanks as the demo's server pane drew them and how each HUD fitted its panel: for tests
	// that compare them with the picture.
	ScreenshotDetails bool
	// GIFPath, if set, records the screenshot run 15 frames a second, halved in size, and
	// writes them to this file as an animated GIF when the screenshot is taken.
	GIFPath string
	// ScreenshotWhen, if set, also waits for a moment (view.MomentHit, view.MomentDestroyed)
	// after the frames, for at most ten times as long as that many frames take at 60 fps.
	ScreenshotWhen string
	// FrameReport, if positive, makes the window draw that many frames after its first
	// second, write one JSON line of their rate and frame-time percentiles to Report (see
	// view.FrameSummary.JSON) and close. It needs Report.
	FrameReport int
	// FrameDriven runs a live game only when a frame is drawn, with no client.Runner between
	// frames: what arrives waits for the next frame and the steps due since the last one
	// leave together. The old way, kept to measure what the Runner changes.
	FrameDriven bool
	// Gunner makes the window aim and fire by itself like a bot (client.Game.Aim): for
	// demos and screenshot tests. The keys still drive.
	Gunner bool
	// ShowScores pins the scoreboard open, as if Tab were held.
	ShowScores bool
	// Tour starts the guided tour (view.TourScenes; O starts and ends it at any time).
	// TourAdvance, if positive, goes on to the next scene every that many frames instead of
	// waiting for the user, and closes the window after the last: for tests and recordings.
	Tour        bool
	TourAdvance int
	// TourScene, if more than 1, starts the tour at that scene (for screenshots).
	TourScene int
	// Slow starts the demo in slow motion, that many times slower than real time (one of
	// view.SlowFactors; 0 or 1: real time). M steps through the factors.
	Slow int
	// Record, if set, receives a client recording of each client pane's session from the
	// first frame on (client.Game.RecordTo): one writer for a single window, the near and
	// then the far player's for the demo. The window flushes them when it closes; closing
	// them is the caller's.
	Record []io.Writer
	// Report, if set, receives one line when the window closes: the frame rate, the
	// frame-time percentiles and the prediction steps dropped after the first second (the
	// window's start-up), so a run's speed is repeatable.
	Report io.Writer
	// Bot, if nonzero, drives the single window's tank as tanksim's bots do, from
	// client.NewDriver(Bot) with a new decision each prediction step, instead of the keys
	// (which still switch what is drawn). The demo ignores it.
	Bot uint64
	// OnFrame, if set, is called after every Update with each client pane's Game (the single
	// window's, or the demo's near then far player's), on the window's goroutine: a page or a
	// test reads its counters there (client.Game.Report).
	OnFrame func(now time.Time, games []*client.Game)
	// Touch, if set, is a touch screen's stick and fire button (the browser page's): the
	// single window's tank drives by its stick and the keys together, and fires by either.
	// The demo ignores it.
	Touch *view.TouchPad
	// Away, if set, says when the page's tab is hidden or frozen: the single window's Game
	// goes away while it is (client.Game.GoAway), and comes back after. The demo ignores it.
	Away *AwaySwitch
}

// Network is the link conditioner the session runs over, and what it is set to.
type Network struct {
	Conn *linksim.ConditionedConn
	// Preset is the name of the preset in force (see linksim.PresetNames), or "custom"
	// for conditions set by hand.
	Preset string
}

// Validate reports whether o is usable.
func (o Options) Validate() error {
	switch {
	case o.Width < 0 || o.Height < 0:
		return fmt.Errorf("render: window size %dx%d is negative", o.Width, o.Height)
	case o.ScreenshotPath != "" && o.ScreenshotFrames < 1:
		return errors.New("render: a screenshot needs at least one frame")
	case !view.ValidMoment(o.ScreenshotWhen):
		return fmt.Errorf("render: unknown screenshot moment %q (want hit or destroyed)", o.ScreenshotWhen)
	case o.ScreenshotWhen != "" && o.ScreenshotPath == "":
		return errors.New("render: a screenshot moment is waited for before a screenshot: set the screenshot too")
	case o.FrameReport < 0 || (o.FrameReport > 0 && o.Report == nil):
		return fmt.Errorf("render: a frame report of %d frames needs a positive count and a Report writer", o.FrameReport)
	case o.GIFPath != "" && o.ScreenshotPath == "":
		return errors.New("render: a GIF is recorded during a screenshot run: set the screenshot too")
	case o.Slow != 0 && view.NextSlow(o.Slow, 0) != o.Slow:
		return fmt.Errorf("render: slow motion %d: want one of %v", o.Slow, view.SlowFactors)
	case o.TourAdvance < 0:
		return fmt.Errorf("render: tour advance %d frames is negative", o.TourAdvance)
	case o.TourScene < 0 || o.TourScene > len(view.TourScenes):
		return fmt.Errorf("render: tour scene %d: want 1 to %d", o.TourScene, len(view.TourScenes))
	case o.Net != nil && o.Net.Conn == nil:
		return errors.New("render: network without a conditioner")
	}
	if err := o.Game.Local.Validate(); err != nil {
		return fmt.Errorf("render: %w", err)
	}
	if err := o.Game.Interp.Validate(); err != nil {
		return fmt.Errorf("render: %w", err)
	}
	return nil
}

func (o Options) size() (int, int) {
	w, h := o.Width, o.Height
	if w == 0 {
		w = 1200
	}
	if h == 0 {
		h = 580
	}
	return w, h
}
