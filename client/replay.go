package client

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"google.golang.org/protobuf/encoding/protodelim"
	"google.golang.org/protobuf/proto"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
)

// Replay runs a client recording (record.go) through a new Game: each Step gives the Game
// one recorded frame, the messages that arrived and the controls held, and runs its Update
// at the recorded time. The Game cannot tell it from the session it first ran on, so it
// predicts, reconciles, corrects and interpolates exactly as it did then.
type Replay struct {
	in     *offsetReader
	link   *replayLink
	game   *Game
	epoch  time.Time
	frames int // frames stepped so far
	frame  tankv1.ClientRecordingFrame
}

// serverRecordingMagic opens a server recording (server/recording.Magic, which package client
// may not import): a file that has it is told apart from a damaged client recording.
const serverRecordingMagic = "tanknet-recording"

// maxRecordSize bounds one record of a recording: a frame holds what arrived in one frame,
// at most a few snapshots' worth in any sane file.
const maxRecordSize = 4 << 20

// OpenReplay reads a recording's header from r and returns a Replay whose Game starts at
// epoch (any time: the recording's times are kept relative to it).
func OpenReplay(r io.Reader, epoch time.Time) (*Replay, error) {
	in := &offsetReader{r: bufio.NewReader(r)}
	if head, _ := in.r.Peek(64); bytes.Contains(head, []byte(serverRecordingMagic)) {
		return nil, errors.New("client recording: this is a server recording (tankserver -record): check it with tankreplay verify; tankclient -replay plays client recordings (tankclient -record, tanksim -record)")
	}
	var h tankv1.ClientRecordingHeader
	if err := in.read(&h); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("client recording: empty file")
		}
		return nil, fmt.Errorf("client recording: header: %w", err)
	}
	switch {
	case h.GetMagic() != recordingMagic:
		return nil, fmt.Errorf("client recording: byte 0: not a tanknet client recording (it begins %q, want %q)", clip(h.GetMagic()), recordingMagic)
	case h.GetFormatVersion() == 0 || h.GetFormatVersion() > recordingVersion:
		return nil, fmt.Errorf("client recording: format version %d; this tanknet reads 1 to %d", h.GetFormatVersion(), recordingVersion)
	}
	welcome, err := welcomeFromProto(h.GetWelcome())
	if err != nil {
		return nil, fmt.Errorf("client recording: header's welcome: %w", err)
	}
	var opts Options
	if err := json.Unmarshal(h.GetOptionsJson(), &opts); err != nil {
		return nil, fmt.Errorf("client recording: header's options: %w", err)
	}
	link := &replayLink{welcome: welcome}
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
	proto.Reset(f)
	at := p.in.off
	if err := p.in.read(f); err != nil {
		if errors.Is(err, io.EOF) {
			return time.Time{}, io.EOF
		}
		return time.Time{}, fmt.Errorf("client recording: frame %d: %w", p.frames+1, err)
	}
	in := netcode.Input{Turn: f.GetTurn(), Throttle: f.GetThrottle()}
	if err := in.Validate(); err != nil {
		return time.Time{}, fmt.Errorf("client recording: frame %d at byte %d: controls: %w", p.frames+1, at, err)
	}
	for _, a := range f.GetArrivals() {
		if a.GetMessage() == nil {
			return time.Time{}, fmt.Errorf("client recording: frame %d at byte %d: an arrival with no message", p.frames+1, at)
		}
		p.link.queue = append(p.link.queue, Received{At: p.epoch.Add(time.Duration(a.GetAtNs())), Msg: a.GetMessage(), Datagram: a.GetDatagram()})
	}
	if e := f.GetLinkError(); e != "" {
		p.link.err = errors.New(e)
	}
	if f.GetFire() {
		p.game.Fire(f.GetLagComp())
	}
	if n := f.GetNetwork(); n != "" {
		p.game.NoteNetwork(n)
	}
	p.game.SetInputOnArrival(f.GetInputOnArrival())
	now := p.epoch.Add(time.Duration(f.GetAtNs()))
	p.frames++
	return now, p.game.Update(now, in)
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

// offsetReader reads length-delimited records and counts the bytes it has read, so errors
// can say where.
type offsetReader struct {
	r   *bufio.Reader
	off int64
}

func (o *offsetReader) ReadByte() (byte, error) {
	b, err := o.r.ReadByte()
	if err == nil {
		o.off++
	}
	return b, err
}

func (o *offsetReader) Read(p []byte) (int, error) {
	n, err := o.r.Read(p)
	o.off += int64(n)
	return n, err
}

// read reads one record into m; io.EOF only at a clean end between records.
func (o *offsetReader) read(m proto.Message) error {
	start := o.off
	err := protodelim.UnmarshalOptions{MaxSize: maxRecordSize}.UnmarshalFrom(o, m)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, io.EOF) && o.off == start:
		return io.EOF
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("byte %d: the file ends inside a record (truncated?)", start)
	}
	return fmt.Errorf("byte %d: a record that does not decode: %w", start, err)
}

// clip shortens s for an error message.
func clip(s string) string {
	if len(s) > 32 {
		return s[:32] + "…"
	}
	return s
}

// replayLink plays the server's part from a recording: what arrived is what was recorded,
// and what the Game sends goes nowhere.
type replayLink struct {
	welcome Welcome
	queue   []Received
	err     error
}

func (l *replayLink) Welcome() Welcome { return l.welcome }
func (l *replayLink) Drain(dst []Received) ([]Received, error) {
	dst = append(dst, l.queue...)
	clear(l.queue)
	l.queue = l.queue[:0]
	return dst, l.err
}
func (l *replayLink) SendInput(netcode.PendingInput) error                        { return nil }
func (l *replayLink) SendInputBatch([]netcode.PendingInput, uint32, uint32) error { return nil }
func (l *replayLink) SendFire(netcode.ShotRequest) error                          { return nil }
func (l *replayLink) SendInputMode(bool) error                                    { return nil }
func (l *replayLink) Ping(uint64) error                                           { return nil }
func (l *replayLink) SmoothedRTT() time.Duration                                  { return 0 }
func (l *replayLink) DatagramStats() (bad, dropped uint64)                        { return 0, 0 }

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
	for _, a := range p.frame.GetArrivals() {
		if s := a.GetMessage().GetSnapshot(); s != nil {
			dst = append(dst, TickArrived{Tick: s.GetServerTick(), At: time.Duration(a.GetAtNs())})
		}
	}
	return dst
}
