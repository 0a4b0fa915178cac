package client

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"time"
)

// Playback plays a client recording like a video: at a chosen speed, paused, a frame at a
// time, or from any moment. It keeps the whole recording in memory; going forward steps the
// recorded frames through a Replay, and going back replays from the start to the moment
// wanted (a Game's state cannot be rewound, and replaying is fast: see BenchmarkPlaybackSeek).
// The Game it plays changes when it goes back: Game returns the current one.
type Playback struct {
	data  []byte
	times []time.Duration // each frame's time since the recording's first frame
	ended string          // why the recorded session ended, if it did not end cleanly
	rep   *Replay
	pos   time.Duration // playback position, since the first frame
	// Speed scales how fast Advance moves the position (1 is real time).
	Speed float64
	// Paused stops Advance from moving the position.
	Paused bool
	// OnStep, if set, is called after each frame is stepped, with the Game: a window uses it
	// to follow what each frame changed, as it does live.
	OnStep func(g *Game)
}

// playbackEpoch is the local time a Playback's Games start at; any time would do.
var playbackEpoch = time.Unix(1_000_000, 0)

// NewPlayback reads a recording and checks every frame of it, so that playing it later
// cannot fail halfway.
func NewPlayback(data []byte) (*Playback, error) {
	p := &Playback{data: data, Speed: 1}
	rep, err := OpenReplay(bytes.NewReader(data), playbackEpoch)
	if err != nil {
		return nil, err
	}
	for {
		at, err := rep.Step()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil && rep.frame.LinkError == "" {
			return nil, err // the file is damaged, not the session
		}
		p.times = append(p.times, at.Sub(playbackEpoch))
		if err != nil {
			p.ended = rep.frame.LinkError
			break
		}
	}
	if len(p.times) == 0 {
		return nil, errors.New("client recording: no frames")
	}
	first := p.times[0] // since the Game began: positions count from the first frame
	for i := range p.times {
		p.times[i] -= first
	}
	return p, p.restart()
}

// restart begins again before the first frame, with a new Game.
func (p *Playback) restart() error {
	rep, err := OpenReplay(bytes.NewReader(p.data), playbackEpoch)
	if err != nil {
		return err
	}
	p.rep, p.pos = rep, 0
	return p.stepTo(0)
}

// stepTo steps every frame due at or before position to.
func (p *Playback) stepTo(to time.Duration) error {
	for n := p.rep.Frames(); n < len(p.times) && p.times[n] <= to; n = p.rep.Frames() {
		if _, err := p.rep.Step(); err != nil && n+1 < len(p.times) {
			return fmt.Errorf("client recording: frame %d: %w", n+1, err)
		}
		if p.OnStep != nil {
			p.OnStep(p.rep.Game())
		}
	}
	p.pos = max(to, 0)
	return nil
}

// Game returns the Game the recording is playing through, as of the current frame.
func (p *Playback) Game() *Game { return p.rep.Game() }

// Duration returns the time from the first frame to the last.
func (p *Playback) Duration() time.Duration { return p.times[len(p.times)-1] }

// Position returns the playback position, from the first frame.
func (p *Playback) Position() time.Duration { return p.pos }

// Frame returns how many frames have been played (the current one is the Nth) of how many.
func (p *Playback) Frame() (n, of int) { return p.rep.Frames(), len(p.times) }

// Ended returns why the recorded session ended, or "" if it ended cleanly (the player quit).
func (p *Playback) Ended() string { return p.ended }

// Advance moves the position by wall time elapsed, times Speed, unless paused; at the end of
// the recording it pauses. Going forward keeps the Game.
func (p *Playback) Advance(elapsed time.Duration) error {
	if p.Paused || elapsed <= 0 {
		return nil
	}
	to := p.pos + time.Duration(float64(elapsed)*p.Speed)
	if to >= p.Duration() {
		to, p.Paused = p.Duration(), true
	}
	return p.stepTo(to)
}

// Seek moves the position to to (clamped to the recording). Going back replays from the
// start, with a new Game: rebuilt says so.
func (p *Playback) Seek(to time.Duration) (rebuilt bool, err error) {
	to = min(max(to, 0), p.Duration())
	if n := p.rep.Frames(); n > 0 && to < p.times[n-1] {
		if err := p.restart(); err != nil {
			return true, err
		}
		rebuilt = true
	}
	return rebuilt, p.stepTo(to)
}

// StepFrames pauses and moves by n frames (back when negative), landing on a frame's time.
func (p *Playback) StepFrames(n int) (rebuilt bool, err error) {
	p.Paused = true
	cur, _ := p.Frame()
	target := min(max(cur+n, 1), len(p.times))
	return p.Seek(p.times[target-1])
}
