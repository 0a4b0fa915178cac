package render

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"tanknet/client"
)

// RunLobby opens the window on the lobby (view.Lobby): the servers LAN discovery finds and
// their rooms, refreshed as cfg.Discovery says, a name field and an address field. Joining
// a room plays it in the same window (the live window, as Run) until Esc brings the lobby
// back; Esc or F10 in the lobby quits, and F10 quits a match too. Ebitengine runs one game
// per process, so the lobby and every match share this one window.
//
// opts are the lobby window's: its size, position and title, and a screenshot
// (ScreenshotPath after ScreenshotFrames frames and discovery's first round). Each match's
// own Options come from cfg.Join. Nothing the network does blocks a frame: discovery and
// each dial run on goroutines of their own, and a session ends with its goodbye on another.
// RunLobby returns nil when the player quits or ctx ends, once those goroutines are done.
// It must be called from the main goroutine (Ebitengine's rule).
func RunLobby(ctx context.Context, opts Options, cfg LobbyConfig) error {
	if err := errors.Join(opts.Validate(), cfg.Validate()); err != nil {
		return err
	}
	f, err := loadFonts()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	s := &shell{ctx: ctx, opts: opts, fonts: f, lobby: newLobbyScreen(cfg),
		shot: screenshot{path: opts.ScreenshotPath, frames: opts.ScreenshotFrames}}
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		s.lobby.browse(ctx)
	}()
	openWindow(opts)
	err = ebiten.RunGame(s)
	if s.match != nil {
		s.leave(nil)
	}
	s.lobby.abandon(&s.bg)
	cancel()
	s.bg.Wait()
	return errors.Join(err, s.shot.err)
}

// shell is the Ebitengine game of a window that starts in the lobby: it shows the lobby or
// the match joined from it, and switches between them. Ebitengine calls its methods on one
// goroutine.
type shell struct {
	ctx   context.Context
	opts  Options
	fonts *fonts
	text  textCache
	lobby *lobbyScreen
	shot  screenshot

	match      *window // the match being played; nil in the lobby
	matchLabel string  // what the lobby calls it
	endSession func()  // says goodbye and waits for the match's session reader
	frames     int

	bg sync.WaitGroup // discovery, dials and goodbyes: RunLobby waits for them
}

// Update runs one tick of the lobby or the match. F10 and closing the window quit from
// either; Esc, or a lost session once the window has said why, ends a match.
func (s *shell) Update() error {
	switch {
	case s.ctx.Err() != nil || ebiten.IsWindowBeingClosed():
		return ebiten.Termination
	case s.shot.done:
		return ebiten.Termination
	case s.match != nil && inpututil.IsKeyJustPressed(ebiten.KeyF10):
		return ebiten.Termination
	case s.match != nil:
		if err := s.match.Update(); err != nil {
			s.leave(err)
		}
		return nil
	}
	j, quit := s.lobby.update(s.ctx, &s.bg)
	if quit {
		return ebiten.Termination
	}
	if j != nil {
		if err := s.play(j); err != nil {
			s.lobby.back(s.lobby.dialJoin.Label, err)
		}
	}
	return nil
}

// play starts the match j joined in the window: the live window's mode on its session.
func (s *shell) play(j *joined) error {
	opts := j.opts
	opts.ScreenshotPath, opts.FrameReport, opts.Report, opts.Record = "", 0, nil, nil
	if err := opts.Validate(); err != nil {
		_ = j.sess.Close("client misconfigured")
		return err
	}
	m := &liveWindow{live: live{clock: client.NewClock(time.Now())}, steering: keyboard{}, fromLobby: true}
	if opts.Bot != 0 {
		m.steering = newAutopilot(opts.Bot, keyboard{})
	}
	g := newWindowWith(s.ctx, j.sess.Welcome().Arena, opts, m, s.fonts)
	g.fromLobby = true
	g.panes = []*clientPane{newClientPane("", "player", m.clock.Link(j.sess), opts, opts.Net, time.Now())}
	s.match, s.matchLabel, s.endSession = g, s.lobby.dialJoin.Label, runSession(j.sess)
	if opts.Title != "" {
		ebiten.SetWindowTitle(opts.Title)
	}
	if s.lobby.cfg.Log != nil {
		fmt.Fprint(s.lobby.cfg.Log, joinedLine(s.lobby.dialJoin, j.sess))
	}
	return nil
}

// leave ends the match and shows the lobby: err is why the match ended, ebiten.Termination
// when the player left it. The goodbye and the wait for the session's reader run on a
// goroutine, so the lobby's first frame does not wait for them.
func (s *shell) leave(err error) {
	end := s.endSession
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		end()
	}()
	if errors.Is(err, ebiten.Termination) {
		err = nil
	}
	s.lobby.back(s.matchLabel, err)
	s.match, s.endSession = nil, nil
	ebiten.SetWindowTitle(lobbyTitle(s.opts))
}

// Draw draws the lobby or the match; a screenshot run saves the lobby once its frames are
// drawn and discovery has answered once (or the wait for it ran out).
func (s *shell) Draw(screen *ebiten.Image) {
	if s.match != nil {
		s.match.Draw(screen)
		return
	}
	s.lobby.draw(screen, s.fonts, &s.text)
	s.frames++
	if s.shot.path != "" && s.frames >= s.shot.frames &&
		(s.lobby.lobby.Rounds() > 0 || s.shot.waitedEnough(time.Now())) {
		s.shot.take(screen)
	}
}

// Layout keeps one logical pixel per window pixel, as the match's window does.
func (s *shell) Layout(outsideWidth, outsideHeight int) (int, int) {
	return max(outsideWidth, 1), max(outsideHeight, 1)
}

// DrawFinalScreen copies the frame to the window (see window.DrawFinalScreen).
func (s *shell) DrawFinalScreen(screen ebiten.FinalScreen, offscreen *ebiten.Image, geoM ebiten.GeoM) {
	drawFinal(screen, offscreen, geoM)
}

// lobbyTitle is the lobby window's title.
func lobbyTitle(opts Options) string {
	if opts.Title != "" {
		return opts.Title
	}
	return "tanknet lobby"
}
