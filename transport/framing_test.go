package transport

import (
	"bytes"
	"encoding/hex"
	"io"
	"math"
	"strings"
	"testing"
	"testing/iotest"

	"google.golang.org/protobuf/encoding/protodelim"
	"google.golang.org/protobuf/proto"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
)

// Envelope builders, to keep the tables short.

func cHello(version uint32, name string) *tankv1.ClientMessage {
	return &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Hello{Hello: &tankv1.Hello{ProtocolVersion: version, Name: name}}}
}

func cMove(tick uint32, turn, throttle float64, ms uint32) *tankv1.ClientMessage {
	return &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_MoveInput{MoveInput: &tankv1.MoveInput{
		Tick: tick, Turn: turn, Throttle: throttle, DurationMs: ms}}}
}

func cGoodbye(reason string) *tankv1.ClientMessage {
	return &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Goodbye{Goodbye: &tankv1.Goodbye{Reason: reason}}}
}

func sSnapshot(tick uint32, players ...*tankv1.PlayerState) *tankv1.ServerMessage {
	return &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Snapshot{Snapshot: &tankv1.Snapshot{ServerTick: tick, Players: players}}}
}

func pState(id, tick uint32, x, y, rot float64, ack uint32) *tankv1.PlayerState {
	g := netcode.ToGrid(netcode.Pose{X: x, Y: y, Heading: rot})
	return &tankv1.PlayerState{PlayerId: id, Tick: tick, AcknowledgedMoveTick: ack, GridX: g.X, GridY: g.Y, GridHeading: g.Heading}
}

// sampleMessages is one of every message kind in both directions, plus edge cases.
func sampleMessages() map[string]proto.Message {
	arena := netcode.DefaultArena()
	many := make([]*tankv1.PlayerState, 64)
	for i := range many {
		many[i] = pState(uint32(i+1), 1<<20, float64(i)*0.37, 24.4-float64(i)*0.1, -math.Pi+float64(i)*0.09, uint32(1<<20-3))
	}
	return map[string]proto.Message{
		"empty client envelope": &tankv1.ClientMessage{},
		"hello":                 cHello(1, "ada"),
		"hello utf8":            cHello(1, "Ådå 🚀"),
		"move":                  cMove(7, -1, 0.5, 50),
		"move zero input":       cMove(1, 0, 0, 50),
		"move negative zero":    cMove(2, math.Copysign(0, -1), math.SmallestNonzeroFloat64, 1),
		"move max tick":         cMove(math.MaxUint32, 1, -1, 200),
		"ping":                  &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Ping{Ping: &tankv1.Ping{ClientTimeUs: math.MaxUint64}}},
		"goodbye":               cGoodbye("window closed"),
		"empty server envelope": &tankv1.ServerMessage{},
		"welcome": &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Welcome{Welcome: &tankv1.Welcome{
			PlayerId: 3, TickIntervalMs: 50, ServerTick: 1234, Arena: &tankv1.Arena{Width: arena.Width, Height: arena.Height, TankRadius: arena.TankRadius, Speed: arena.Speed, TurnRate: arena.TurnRate}, MaxInputLead: 40}}},
		"reject": &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Reject{Reject: &tankv1.Reject{
			Code: tankv1.RejectCode_REJECT_CODE_VERSION_MISMATCH, Reason: "protocol version 7 not supported (want 2)"}}},
		"snapshot empty": sSnapshot(1),
		"snapshot one":   sSnapshot(120, pState(1, 120, 4, 2.5, 0, 117)),
		"snapshot 64":    sSnapshot(1<<20, many...),
		"pong":           &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Pong{Pong: &tankv1.Pong{ClientTimeUs: 99, ServerTick: 7}}},
		"roster update": &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_RosterUpdate{RosterUpdate: &tankv1.RosterUpdate{
			Joined: []*tankv1.PlayerJoined{{PlayerId: 2, Name: "bob"}}, Left: []*tankv1.PlayerLeft{{PlayerId: 1, Reason: "timed out"}}}}},
		"disconnect":      &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Disconnect{Disconnect: &tankv1.Disconnect{Reason: "server shutting down"}}},
		"goodbye maximal": cGoodbye(strings.Repeat("x", maxGoodbyeReason)),
	}
}

// maxGoodbyeReason is the longest Goodbye reason whose ClientMessage is exactly MaxFrameSize
// bytes: 1 (tag) + 2 (varint) + [1 (tag) + 2 (varint) + reason] = 16384.
const maxGoodbyeReason = MaxFrameSize - 6

// newLike returns an empty message of m's type.
func newLike(m proto.Message) proto.Message {
	return m.ProtoReflect().New().Interface()
}

func TestFrame_RoundTripAndMatchesProtodelim(t *testing.T) {
	for name, m := range sampleMessages() {
		t.Run(name, func(t *testing.T) {
			prefix := []byte{0xde, 0xad} // AppendFrame must append, not overwrite
			got, err := AppendFrame(prefix, m)
			if err != nil {
				t.Fatalf("AppendFrame: %v", err)
			}
			if !bytes.Equal(got[:2], []byte{0xde, 0xad}) {
				t.Fatalf("AppendFrame clobbered dst: % x", got[:2])
			}
			frame := got[2:]

			var want bytes.Buffer
			if _, err := protodelim.MarshalTo(&want, m); err != nil {
				t.Fatalf("protodelim.MarshalTo: %v", err)
			}
			if !bytes.Equal(frame, want.Bytes()) {
				t.Fatalf("AppendFrame bytes differ from protodelim.MarshalTo:\n got % x\nwant % x", frame, want.Bytes())
			}

			out := newLike(m)
			fr := NewFrameReader(bytes.NewReader(frame))
			if err := fr.Read(out); err != nil {
				t.Fatalf("Read: %v", err)
			}
			if !proto.Equal(m, out) {
				t.Fatalf("round trip changed the message:\n got %v\nwant %v", out, m)
			}
			if err := fr.Read(newLike(m)); err != io.EOF {
				t.Fatalf("Read after the last frame = %v, want io.EOF", err)
			}
		})
	}
}

// TestFrame_WorkedExampleBytes pins the byte examples printed in docs/PROTOCOL.md. If this
// test changes, change the document too.
func TestFrame_WorkedExampleBytes(t *testing.T) {
	for _, tc := range []struct {
		name string
		msg  proto.Message
		hex  string
	}{
		{
			name: "ClientMessage{hello{protocol_version:2 name:ada}}",
			msg:  cHello(2, "ada"),
			hex:  "09 0a 07 08 02 12 03 61 64 61",
		},
		{
			name: "ClientMessage{move_input{tick:7 turn:-1 throttle:0.5 duration_ms:50}}",
			msg:  cMove(7, -1, 0.5, 50),
			hex: "18 12 16 08 07 11 00 00 00 00 00 00 f0 bf" +
				" 19 00 00 00 00 00 00 e0 3f 20 32",
		},
		{
			name: "ServerMessage{snapshot{server_tick:120 players:[{1 120 (4,2.5) 0 117}]}}",
			msg:  sSnapshot(120, pState(1, 120, 4, 2.5, 0, 117)),
			hex:  "13 1a 11 08 78 12 0d 08 01 10 78 28 75 78 80 20 80 01 80 14",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, err := hex.DecodeString(strings.ReplaceAll(tc.hex, " ", ""))
			if err != nil {
				t.Fatal(err)
			}
			got, err := AppendFrame(nil, tc.msg)
			if err != nil {
				t.Fatalf("AppendFrame: %v", err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("frame bytes changed:\n got % x\nwant % x", got, want)
			}
			out := newLike(tc.msg)
			if err := NewFrameReader(bytes.NewReader(want)).Read(out); err != nil {
				t.Fatalf("Read: %v", err)
			}
			if !proto.Equal(out, tc.msg) {
				t.Fatalf("decoded %v, want %v", out, tc.msg)
			}
		})
	}
}

func TestFrameReader_BackToBackInOrder(t *testing.T) {
	msgs := []*tankv1.ClientMessage{
		cHello(1, "ada"), cMove(1, 0, 1, 50), cMove(2, 0.25, 1, 50), {},
		{Kind: &tankv1.ClientMessage_Ping{Ping: &tankv1.Ping{ClientTimeUs: 12345}}},
		cMove(3, -1, -1, 120), cGoodbye("bye"),
	}
	var stream []byte
	for _, m := range msgs {
		var err error
		if stream, err = AppendFrame(stream, m); err != nil {
			t.Fatal(err)
		}
	}
	for rname, r := range map[string]io.Reader{
		"plain":    bytes.NewReader(stream),
		"one byte": iotest.OneByteReader(bytes.NewReader(stream)),
		"half":     iotest.HalfReader(bytes.NewReader(stream)),
		"data+EOF": iotest.DataErrReader(bytes.NewReader(stream)),
	} {
		t.Run(rname, func(t *testing.T) {
			fr := NewFrameReader(r)
			var m tankv1.ClientMessage // reused, as the server's read loop does
			for i, want := range msgs {
				if err := fr.Read(&m); err != nil {
					t.Fatalf("frame %d: %v", i, err)
				}
				if !proto.Equal(&m, want) {
					t.Fatalf("frame %d = %v, want %v (a reused message must be reset)", i, &m, want)
				}
			}
			if err := fr.Read(&m); err != io.EOF {
				t.Fatalf("Read after the last frame = %v, want io.EOF", err)
			}
		})
	}
}
