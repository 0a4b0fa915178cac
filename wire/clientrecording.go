package wire

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"time"

	"google.golang.org/protobuf/encoding/protodelim"
	"google.golang.org/protobuf/proto"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
)

// The bytes of a client recording (proto/tank/v1/client_recording.proto, docs/RECORDINGS.md):
// a header, then one length-delimited frame per Update of the Game, each with the messages
// that arrived in it. Package client decides what to record and plays it back; this file
// writes and reads the bytes.

// ClientRecordingMagic opens every client recording.
const ClientRecordingMagic = "tanknet client recording"

// ClientRecordingVersion is the format version this code writes and the newest it reads.
const ClientRecordingVersion = 1

// serverRecordingMagic opens a server recording (server/recording.Magic): a file that has
// it is told apart from a damaged client recording.
const serverRecordingMagic = "tanknet-recording"

// maxRecordSize bounds one record of a recording: a frame holds what arrived in one frame,
// at most a few snapshots' worth in any sane file.
const maxRecordSize = 4 << 20

// RecordingHeader is what a client recording says before its frames: the Welcome the Game
// started from and its options (client.Options as JSON, which this package does not read).
type RecordingHeader struct {
	Welcome     Welcome
	OptionsJSON []byte
}

// RecordingFrame is one Update of a recorded Game: its local time, the controls and trigger,
// the input mode, every message that arrived since the previous one, the error that ended
// the link if one did, and the link's description when it changed.
type RecordingFrame struct {
	At             time.Duration // since the Game's epoch
	Input          netcode.Input
	Fire, LagComp  bool
	InputOnArrival bool
	Away           bool // the Game was away (client.Game.Away): no prediction step ran
	Arrivals       []Arrival
	LinkError      string
	Network        string
}

// Arrival is one recorded message and when it arrived, since the Game's epoch.
type Arrival struct {
	At       time.Duration
	Datagram bool // a snapshot chunk from the datagram lane
	Msg      ServerMessage
}

// WriteRecordingHeader writes a client recording's header to w.
func WriteRecordingHeader(w io.Writer, h RecordingHeader) error {
	_, err := protodelim.MarshalTo(w, &tankv1.ClientRecordingHeader{
		Magic: ClientRecordingMagic, FormatVersion: ClientRecordingVersion,
		Welcome: WelcomeToProto(h.Welcome), OptionsJson: h.OptionsJSON,
	})
	return err
}

// FrameWriter writes recording frames, reusing one message. Its zero value is ready.
type FrameWriter struct {
	m tankv1.ClientRecordingFrame
}

// Write writes f to w.
func (fw *FrameWriter) Write(w io.Writer, f *RecordingFrame) error {
	m := &fw.m
	*m = tankv1.ClientRecordingFrame{
		AtNs: int64(f.At), Turn: f.Input.Turn, Throttle: f.Input.Throttle,
		Fire: f.Fire, LagComp: f.LagComp, InputOnArrival: f.InputOnArrival, Away: f.Away, Arrivals: m.Arrivals[:0],
		LinkError: f.LinkError, Network: f.Network,
	}
	for _, a := range f.Arrivals {
		m.Arrivals = append(m.Arrivals, &tankv1.ClientRecordingArrival{AtNs: int64(a.At), Datagram: a.Datagram, Message: ServerMessageToProto(a.Msg)})
	}
	_, err := protodelim.MarshalTo(w, m)
	clear(m.Arrivals)
	return err
}

// RecordingReader reads a client recording: ReadHeader once, then ReadFrame until io.EOF.
// Every error says where in the file it is.
type RecordingReader struct {
	in    offsetReader
	frame tankv1.ClientRecordingFrame
}

// NewRecordingReader returns a reader of the recording in r.
func NewRecordingReader(r io.Reader) *RecordingReader {
	return &RecordingReader{in: offsetReader{r: bufio.NewReader(r)}}
}

// Offset returns how many bytes of the recording have been read: after ReadHeader, the
// header's size.
func (rr *RecordingReader) Offset() int64 { return rr.in.off }

// ReadHeader reads and checks the header: the magic, a format version this code reads, a
// usable Welcome. A server recording is named as one.
func (rr *RecordingReader) ReadHeader() (RecordingHeader, error) {
	if head, _ := rr.in.r.Peek(64); bytes.Contains(head, []byte(serverRecordingMagic)) {
		return RecordingHeader{}, errors.New("client recording: this is a server recording (tankserver -record): check it with tankreplay verify; tankclient -replay plays client recordings (tankclient -record, tanksim -record)")
	}
	var h tankv1.ClientRecordingHeader
	if err := rr.in.read(&h); err != nil {
		if errors.Is(err, io.EOF) {
			return RecordingHeader{}, errors.New("client recording: empty file")
		}
		return RecordingHeader{}, fmt.Errorf("client recording: header: %w", err)
	}
	switch {
	case h.GetMagic() != ClientRecordingMagic:
		return RecordingHeader{}, fmt.Errorf("client recording: byte 0: not a tanknet client recording (it begins %q, want %q)", clip(h.GetMagic()), ClientRecordingMagic)
	case h.GetFormatVersion() == 0 || h.GetFormatVersion() > ClientRecordingVersion:
		return RecordingHeader{}, fmt.Errorf("client recording: format version %d; this tanknet reads 1 to %d", h.GetFormatVersion(), ClientRecordingVersion)
	}
	welcome, err := WelcomeFromProto(h.GetWelcome())
	if err != nil {
		return RecordingHeader{}, fmt.Errorf("client recording: header's welcome: %w", err)
	}
	return RecordingHeader{Welcome: welcome, OptionsJSON: h.GetOptionsJson()}, nil
}

// ReadFrame reads the next frame into f, which it overwrites (its Arrivals' storage is
// reused); n is the frame's number from 1, for errors. At the recording's clean end it
// returns io.EOF. Controls that are not finite, an arrival without a message and a message
// that does not pass a client's checks (ServerMessageFromProto) are errors; an arrival of a kind
// this version does not know is left out.
func (rr *RecordingReader) ReadFrame(f *RecordingFrame, n int) error {
	m := &rr.frame
	proto.Reset(m)
	*f = RecordingFrame{Arrivals: f.Arrivals[:0]}
	at := rr.in.off
	if err := rr.in.read(m); err != nil {
		if errors.Is(err, io.EOF) {
			return io.EOF
		}
		return fmt.Errorf("client recording: frame %d: %w", n, err)
	}
	*f = RecordingFrame{
		At: time.Duration(m.GetAtNs()), Input: netcode.Input{Turn: m.GetTurn(), Throttle: m.GetThrottle()},
		Fire: m.GetFire(), LagComp: m.GetLagComp(), InputOnArrival: m.GetInputOnArrival(), Away: m.GetAway(),
		Arrivals: f.Arrivals[:0], LinkError: m.GetLinkError(), Network: m.GetNetwork(),
	}
	if err := f.Input.Validate(); err != nil {
		return fmt.Errorf("client recording: frame %d at byte %d: controls: %w", n, at, err)
	}
	for _, a := range m.GetArrivals() {
		if a.GetMessage() == nil {
			return fmt.Errorf("client recording: frame %d at byte %d: an arrival with no message", n, at)
		}
		msg, err := ServerMessageFromProto(a.GetMessage())
		if err != nil {
			return fmt.Errorf("client recording: frame %d at byte %d: %w", n, at, err)
		}
		if msg != nil {
			f.Arrivals = append(f.Arrivals, Arrival{At: time.Duration(a.GetAtNs()), Datagram: a.GetDatagram(), Msg: msg})
		}
	}
	return nil
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
