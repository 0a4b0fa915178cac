package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"tanknet/wire"
)

// Replay runs a client recording (record.go) through a new Game: each Step gives the Game
// one recorded frame, the messages that arrived and the controls held, and runs its Update
// at the recorded time. The Game cannot tell it from the session it first ran on, so it
// predicts, reconciles, corrects and interpolates exactly as it did then.
type Replay struct {
	in     *wire.RecordingReader
	link   *replayLink
	game   *Game
	epoch  time.Time
	frames int // frames stepped so far
	frame  wire.RecordingFrame
}

// OpenReplay reads a recording's header from r and returns a Replay whose Game starts at
// epoch (any time: the recording's times are kept relative to it).
func OpenReplay(r io.Reader, epoch time.Time) (*Replay, error) {
	in := wire.NewRecordingReader(r)
	h, err := in.ReadHeader()
	if err != nil {
		return nil, err
	}
	var opts Options
	if err := json.Unmarshal(h.OptionsJSON, &opts); err != nil {
		return nil, fmt.Errorf("client recording: header's options: %w", err)
	}
	link := &replayLink{welcome: h.Welcome}
	return &Replay{in: in, link: link, game: NewGame(link, opts, epoch), epoch: epoch}, nil
}

// Game returns the Game the recording drives.
func (p *Replay) Game() *Game { return p.game }

// Frames returns how many frames have been stepped.
func (p *Replay) Frames() int { return p.frames }

// Step runs the next recorded frame and returns its local time. At the end of the recording
// it returns io.EOF; if the recorded session ended on this frame, the error that ended it
// (as Update returned it then). A damaged recording gets an error naming the byte offset.
func (p *Replay) Step() (time.Time, error) {
	f := &p.frame
	if err := p.in.ReadFrame(f, p.frames+1); err != nil {
		return time.Time{}, err
	}
	for _, a := range f.Arrivals {
		p.link.queue = append(p.link.queue, Received{At: p.epoch.Add(a.At), Msg: a.Msg, Datagram: a.Datagram})
	}
	if f.LinkError != "" {
		p.link.err = errors.New(f.LinkError)
	}
	if f.Fire {
		p.game.Fire(f.LagComp)
	}
	if f.Network != "" {
		p.game.NoteNetwork(f.Network)
	}
	p.game.SetInputOnArrival(f.InputOnArrival)
	if f.Away != p.game.Away() {
		p.game.replayAway(f.Away)
	}
	now := p.epoch.Add(f.At)
	p.frames++
	return now, p.game.Update(now, f.Input)
}

// StepToEnd steps every frame left and returns nil at the recording's clean end, or the
// first error: a damaged file, or the error that ended the recorded session.
func (p *Replay) StepToEnd() error {
	for {
		if _, err := p.Step(); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return err
		}
	}
}

// replayLink plays the server's part from a recording: what arrived is what was recorded,
// and what the Game sends goes nowhere.
type replayLink struct {
	welcome wire.Welcome
	queue   []Received
	err     error
}

func (l *replayLink) Welcome() wire.Welcome { return l.welcome }
func (l *replayLink) Drain(dst []Received) ([]Received, error) {
	dst = append(dst, l.queue...)
	clear(l.queue)
	l.queue = l.queue[:0]
	return dst, l.err
}
func (l *replayLink) Send(wire.GameMessage) error { return nil }

// TickArrived says that a snapshot (whole, or a chunk) of server tick Tick arrived At, since
// the Game began.
type TickArrived struct {
	Tick uint32
	At   time.Duration
}

// SnapshotTicks appends to dst the snapshots that arrived in the frame last stepped: what a
// viewer lines the server's recording up with (which server tick had reached this client
// by when).
func (p *Replay) SnapshotTicks(dst []TickArrived) []TickArrived {
	for _, a := range p.frame.Arrivals {
		if s, ok := a.Msg.(*wire.Snapshot); ok {
			dst = append(dst, TickArrived{Tick: s.Tick, At: a.At})
		}
	}
	return dst
}
