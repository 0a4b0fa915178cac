package client

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"google.golang.org/protobuf/encoding/protodelim"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/wire"
)

// A client recording keeps what a Game was given, frame by frame: the local time of each
// Update, the controls, the trigger, the input mode, and every server message with its
// arrival time. Replay (replay.go) gives the same to a new Game, which then runs exactly as
// the first did. The format is proto/tank/v1/client_recording.proto, described in
// docs/RECORDINGS.md.

// recordingMagic opens every client recording.
const recordingMagic = "tanknet client recording"

// recordingVersion is the format version this code writes and the newest it reads.
const recordingVersion = 1

// recorder writes a Game's frames. A write that fails stops the recording, never the game:
// the error waits for StopRecording.
type recorder struct {
	w       *bufio.Writer
	epoch   time.Time
	frame   tankv1.ClientRecordingFrame
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
	r := &recorder{w: bufio.NewWriterSize(w, 64<<10), epoch: g.epoch}
	h := &tankv1.ClientRecordingHeader{
		Magic: recordingMagic, FormatVersion: recordingVersion,
		Welcome: welcomeToProto(g.welcome), OptionsJson: opts,
	}
	if _, err := protodelim.MarshalTo(r.w, h); err != nil {
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
func (r *recorder) record(now time.Time, in netcode.Input, fire, lagComp, onArrival bool, msgs []Received, linkErr error, network string) {
	if r.err != nil {
		return
	}
	f := &r.frame
	*f = tankv1.ClientRecordingFrame{
		AtNs: int64(now.Sub(r.epoch)), Turn: in.Turn, Throttle: in.Throttle,
		Fire: fire, LagComp: lagComp, InputOnArrival: onArrival, Arrivals: f.Arrivals[:0],
	}
	for _, m := range msgs {
		f.Arrivals = append(f.Arrivals, &tankv1.ClientRecordingArrival{AtNs: int64(m.At.Sub(r.epoch)), Datagram: m.Datagram, Message: m.Msg})
	}
	if linkErr != nil {
		f.LinkError = linkErr.Error()
	}
	if network != r.network {
		f.Network, r.network = network, network
	}
	_, r.err = protodelim.MarshalTo(r.w, f)
	clear(f.Arrivals) // the messages belong to the Game
}

// NoteNetwork tells g how the window describes its link's simulated conditions, for a
// recording to keep (a replay's title and HUD show it) and Network to return. The netcode
// does not read it.
func (g *Game) NoteNetwork(description string) { g.network = description }

// Network is the link's description last noted (NoteNetwork), or replayed from a recording;
// "" when none was.
func (g *Game) Network() string { return g.network }

// welcomeToProto is w as the server sent it.
func welcomeToProto(w Welcome) *tankv1.Welcome {
	return &tankv1.Welcome{
		PlayerId: w.PlayerID, TickIntervalMs: uint32(netcode.StepInterval / time.Millisecond), ServerTick: w.ServerTick,
		Arena: wire.ArenaToProto(&w.Arena), MaxInputLead: w.MaxInputLead,
		SnapshotLane: wire.LaneToProto(w.Lane), Rules: wire.RulesToProto(w.Rules), Room: w.Room,
	}
}

// welcomeFromProto reads a recorded Welcome back, with the checks a live one gets.
func welcomeFromProto(m *tankv1.Welcome) (Welcome, error) {
	arena, err := wire.ArenaFromProto(m.GetArena())
	if err != nil {
		return Welcome{}, err
	}
	rules, err := wire.RulesFromProto(m.GetRules())
	if err != nil {
		return Welcome{}, err
	}
	if m.GetPlayerId() == 0 {
		return Welcome{}, errors.New("player id 0")
	}
	return Welcome{PlayerID: m.GetPlayerId(), Arena: arena, Rules: rules, ServerTick: m.GetServerTick(),
		MaxInputLead: m.GetMaxInputLead(), Lane: wire.LaneFromProto(m.GetSnapshotLane()), Room: m.GetRoom()}, nil
}
