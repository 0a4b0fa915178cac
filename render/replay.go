package render

import (
	"context"
	"fmt"
	"image/color"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"tanknet/client"
	"tanknet/render/view"
)

// RunReplay opens a window on a client recording (tankclient -replay FILE): the recorded
// player's pane as its window drew it, frame by frame, with a playback bar under it. Space
// plays and pauses, ← and → step a frame, Shift with them jumps 5 s, ↑ and ↓ double and
// halve the speed, Home goes back to the start, and a click or a drag on the bar seeks.
// Every view key (P R I G H T B E, Tab, F1) works as it does live. It must be called from
// the main goroutine.
//
// at, if positive, opens the recording paused at that moment.
func RunReplay(ctx context.Context, data []byte, at time.Duration, opts Options) error {
	if err := opts.Validate(); err != nil {
		return err
	}
	pb, err := client.NewPlayback(data)
	if err != nil {
		return err
	}
	m := &replay{onePane: onePane{below: ReplayBarHeight}, bar: replayControl{pb: pb}}
	g, err := newWindow(ctx, pb.Game().Welcome().Arena, opts, m)
	if err != nil {
		return err
	}
	g.panes = []*clientPane{newReplayPane(pb.Game(), opts.Techniques)}
	pb.OnStep = func(game *client.Game) { g.followStep(0, game) }
	if at > pb.Duration() {
		return fmt.Errorf("-replay-at %v is past the recording's end: it is %v long", at, pb.Duration().Round(time.Millisecond))
	}
	if at > 0 {
		pb.Paused = true
		if _, err := pb.Seek(at); err != nil {
			return err
		}
	}
	err = g.run()
	if opts.Report != nil {
		n, of := pb.Frame()
		fmt.Fprintf(opts.Report, "tankclient: replay at frame %d of %d, %.3f s of %.3f s\n", n, of, pb.Position().Seconds(), pb.Duration().Seconds())
	}
	return err
}

// newReplayPane is a single window's pane showing game, which a recording drives.
func newReplayPane(game *client.Game, tech view.Techniques) *clientPane {
	return &clientPane{game: game, tech: tech, lagComp: true, recorded: true, reportName: "player"}
}

// replay is the mode of a client recording's window: the recorded player's pane, which the
// recording drives frame by frame, and the playback bar under it.
type replay struct {
	onePane
	fixed
	bar replayControl
}

func (*replay) begin(*window) error { return nil }
func (*replay) drive(*window)       {} // the recording drives the pane; the arrows and Space play it

func (r *replay) step(_ *window, now time.Time) error {
	r.bar.update(now)
	return nil
}

func (r *replay) drawOver(w *window, dst *ebiten.Image) { w.drawReplayBar(dst, &r.bar, "") }

// followStep keeps pane i on the Game its recording plays (a seek back replays from the
// start through a new one) and lets it follow what the frame changed, as live.
func (g *window) followStep(i int, game *client.Game) {
	p := g.panes[i]
	if p.game != game {
		np := newReplayPane(game, p.tech)
		np.role = p.role
		g.panes[i], p = np, np
		g.viewChanged = true
	}
	p.input = game.Input()
	p.observe(&g.arena)
}

// replayControl is the playback bar: where the recording is, and the keys and the mouse
// that move it.
type replayControl struct {
	pb *client.Playback
	// follow, if set, brings what else plays on pb's clock to its moment after every move
	// (a recording set's far player and server truth, match_replay.go).
	follow   func() error
	lastWall time.Time
	dragging bool
	bar      view.Rect // where the bar was last drawn, for the mouse
	err      error     // a failed step: the window shows it and stops
	// jumped is set by a seek this frame; lastSeek is how long the last one took, every
	// pane brought to the moment (the bar shows it).
	jumped   bool
	lastSeek time.Duration
}

// ReplayBarHeight is the playback bar's height in pixels, under the pane: the seek bar across
// the whole window, and under it the position and the keys.
const ReplayBarHeight = 40

// update moves the playback by the wall time since the last frame and handles its keys and
// the mouse.
func (c *replayControl) update(now time.Time) {
	elapsed := time.Duration(0)
	if !c.lastWall.IsZero() {
		elapsed = min(now.Sub(c.lastWall), 100*time.Millisecond) // a stalled window does not skip ahead
	}
	c.lastWall = now
	pressed := inpututil.IsKeyJustPressed
	shift := ebiten.IsKeyPressed(ebiten.KeyShift)
	pb := c.pb
	var err error
	began := time.Now()
	c.jumped = pressed(ebiten.KeyHome) || pressed(ebiten.KeyArrowLeft) || pressed(ebiten.KeyArrowRight)
	switch {
	case pressed(ebiten.KeySpace):
		if pos, end := pb.Position(), pb.Duration(); pb.Paused && pos >= end {
			_, err = pb.Seek(0) // play again from the start
		}
		pb.Paused = !pb.Paused
	case pressed(ebiten.KeyHome):
		_, err = pb.Seek(0)
	case pressed(ebiten.KeyArrowRight) && shift:
		_, err = pb.Seek(pb.Position() + 5*time.Second)
	case pressed(ebiten.KeyArrowLeft) && shift:
		_, err = pb.Seek(pb.Position() - 5*time.Second)
	case pressed(ebiten.KeyArrowRight):
		_, err = pb.StepFrames(1)
	case pressed(ebiten.KeyArrowLeft):
		_, err = pb.StepFrames(-1)
	case pressed(ebiten.KeyArrowUp):
		pb.Speed = min(pb.Speed*2, maxReplaySpeed)
	case pressed(ebiten.KeyArrowDown):
		pb.Speed = max(pb.Speed/2, minReplaySpeed)
	}
	if err == nil {
		err = c.mouse()
	}
	if err == nil && !c.dragging {
		err = pb.Advance(elapsed)
	}
	if err == nil && c.follow != nil {
		err = c.follow()
	}
	if c.jumped {
		c.lastSeek = time.Since(began)
	}
	if err != nil && c.err == nil {
		c.err = err
	}
}

// The speeds ↑ and ↓ move between.
const (
	minReplaySpeed = 1.0 / 8
	maxReplaySpeed = 8.0
)

// mouse seeks where the bar is clicked or dragged.
func (c *replayControl) mouse() error {
	x, y := ebiten.CursorPosition()
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) && c.bar.Contains(float64(x), float64(y)) {
		c.dragging = true
	}
	if !ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft) {
		c.dragging = false
		return nil
	}
	if !c.dragging {
		return nil
	}
	c.jumped = true
	_, err := c.pb.Seek(view.ScrubTo(float64(x), c.bar, c.pb.Duration()))
	return err
}

// drawReplayBar draws c's playback bar across the bottom of the window, extra after the
// position.
func (g *window) drawReplayBar(dst *ebiten.Image, c *replayControl, extra string) {
	b := dst.Bounds()
	y := float64(b.Dy() - ReplayBarHeight)
	vector.FillRect(dst, 0, float32(y), float32(b.Dx()), ReplayBarHeight, view.PanelSolid, false)
	pb := c.pb
	n, of := pb.Frame()
	state := "playing"
	if pb.Paused {
		state = "paused "
	}
	label := fmt.Sprintf("%s  %.2f / %.2f s  frame %d of %d  speed %s", state, pb.Position().Seconds(), pb.Duration().Seconds(), n, of, speedLabel(pb.Speed))
	label += extra
	if c.lastSeek > 0 {
		label += fmt.Sprintf("  seek %.1f ms", float64(c.lastSeek)/float64(time.Millisecond))
	}
	if c.err != nil {
		label = "replay stopped: " + c.err.Error()
	} else if n == of && pb.Ended() != "" {
		label += "  — the session ended here: " + pb.Ended()
	}
	// The seek bar spans the window on a row of its own, so its length and place do not
	// change with the text; a bar a few pixels taller than it looks is what a click hits.
	c.bar = view.Rect{X: 8, Y: y + 3, W: max(float64(b.Dx())-16, 40), H: 14}
	text := g.text.image(label, g.fonts.mono, view.TextColor, false)
	drawImageAt(dst, text, 8, y+20)
	keys := g.text.image("Space play  ←→ frame  Shift ←→ 5 s  ↑↓ speed  Home start", g.fonts.mono, view.DimText, false)
	if right := float64(b.Dx()) - float64(keys.Bounds().Dx()) - 8; right > float64(text.Bounds().Dx())+24 {
		drawImageAt(dst, keys, right, y+20) // when it fits beside the position
	}
	vector.FillRect(dst, float32(c.bar.X), float32(c.bar.Y), float32(c.bar.W), float32(c.bar.H), color.RGBA{0x33, 0x3a, 0x48, 0xff}, false)
	done := c.bar.W
	if d := pb.Duration(); d > 0 {
		done = c.bar.W * float64(pb.Position()) / float64(d)
	}
	vector.FillRect(dst, float32(c.bar.X), float32(c.bar.Y), float32(done), float32(c.bar.H), view.RTTLine, false)
}

// speedLabel writes a playback speed: "1×", "2×", "1/4×".
func speedLabel(s float64) string {
	if s >= 1 {
		return fmt.Sprintf("%g×", s)
	}
	return fmt.Sprintf("1/%g×", 1/s)
}
