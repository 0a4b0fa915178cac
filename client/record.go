package client

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"tanknet/netcode"
	"tanknet/wire"
)

// A client recording keeps what a Game was given, frame by frame: the local time of each
// Update, the controls, the trigger, the input mode, and every server message with its
// arrival time. Replay (replay.go) gives the same to a new Game, which then runs exactly as
// the first did. The format is proto/tank/v1/client_recording.proto, described in
// docs/RECORDINGS.md, and written and read by package wire (wire/clientrecording.go).

// recorder writes a Game's frames. A write that fails stops the recording, never the game:
// the error waits for StopRecording.
type recorder struct {
	w       *bufio.Writer
	epoch   time.Time
	out     wire.FrameWriter
	frame   wire.RecordingFrame
	err     error
	network string // the link's description last written (NoteNetwork)
}

// RecordTo makes g keep a recording in w from its next Update on: it writes the header at
// once and a frame at every Update. It is meant to be called before the first Update, so
// the recording holds the whole session. StopRecording flushes it.
func (g *Game) RecordTo(w io.Writer) error {
	if g.rec != nil {
		return errors.New("client: already recording")
	}
	opts, err := json.Marshal(g.opts)
	if err != nil {
		return fmt.Errorf("client: record: options: %w", err)
	}
	r := &recorder{w: bufio.NewWriterSize(w, 64<<10), epoch: g.pace.epoch}
	if err := wire.WriteRecordingHeader(r.w, wire.RecordingHeader{Welcome: g.welcome, OptionsJSON: opts}); err != nil {
		return fmt.Errorf("client: record: %w", err)
	}
	g.rec = r
	return nil
}

// StopRecording writes what is buffered and ends the recording. It returns the first error
// the recording met, if any (the recording stopped there).
func (g *Game) StopRecording() error {
	r := g.rec
	if r == nil {
		return nil
	}
	g.rec = nil
	if r.err == nil {
		r.err = r.w.Flush()
	}
	if r.err != nil {
		return fmt.Errorf("client: record: %w", r.err)
	}
	return nil
}

// record writes one frame: what Update was given at now, with the messages it drained and
// the error that ended the link, if one did.
func (r *recorder) record(now time.Time, in netcode.Input, fire, lagComp, onArrival, away bool, msgs []Received, linkErr error, network string) {
	if r.err != nil {
		return
	}
	f := &r.frame
	*f = wire.RecordingFrame{
		At: now.Sub(r.epoch), Input: in, Fire: fire, LagComp: lagComp, InputOnArrival: onArrival,
		Away: away, Arrivals: f.Arrivals[:0],
	}
	for _, m := range msgs {
		f.Arrivals = append(f.Arrivals, wire.Arrival{At: m.At.Sub(r.epoch), Datagram: m.Datagram, Msg: m.Msg})
	}
	if linkErr != nil {
		f.LinkError = linkErr.Error()
	}
	if network != r.network {
		f.Network, r.network = network, network
	}
	r.err = r.out.Write(r.w, f)
	clear(f.Arrivals) // the messages belong to the Game
}

// NoteNetwork tells g how the window describes its link's simulated conditions, for a
// recording to keep (a replay's title and HUD show it) and Network to return. The netcode
// does not read it.
func (g *Game) NoteNetwork(description string) { g.network = description }

// Network is the link's description last noted (NoteNetwork), or replayed from a recording;
// "" when none was.
func (g *Game) Network() string { return g.network }

// FlushRecording writes out what the recording holds buffered, so that every frame recorded
// so far has reached the writer given to RecordTo: for a recording read while it is written
// (Mirror). It returns the error that stopped the recording, if one did.
func (g *Game) FlushRecording() error {
	r := g.rec
	if r == nil {
		return nil
	}
	if r.err == nil {
		r.err = r.w.Flush()
	}
	return r.err
}
