package transport

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"math"
	"net"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"google.golang.org/protobuf/encoding/protodelim"
	"google.golang.org/protobuf/encoding/protowire"
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
	return &tankv1.PlayerState{PlayerId: id, Tick: tick, Position: &tankv1.Vec2{X: x, Y: y}, Rotation: rot, AcknowledgedMoveTick: ack}
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
			PlayerId: 3, TickIntervalMs: 50, ServerTick: 1234, Arena: ArenaToProto(&arena), MaxInputLead: 40}}},
		"reject": &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Reject{Reject: &tankv1.Reject{
			Code: tankv1.RejectCode_REJECT_CODE_VERSION_MISMATCH, Reason: "protocol version 7 not supported (want 1)"}}},
		"snapshot empty":  sSnapshot(1),
		"snapshot one":    sSnapshot(120, pState(1, 120, 4, 2.5, 0, 117)),
		"snapshot 64":     sSnapshot(1<<20, many...),
		"pong":            &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Pong{Pong: &tankv1.Pong{ClientTimeUs: 99, ServerTick: 7}}},
		"player joined":   &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_PlayerJoined{PlayerJoined: &tankv1.PlayerJoined{PlayerId: 2, Name: "bob"}}},
		"player left":     &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_PlayerLeft{PlayerLeft: &tankv1.PlayerLeft{PlayerId: 2, Reason: "timed out"}}},
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
			name: "ClientMessage{hello{protocol_version:1 name:ada}}",
			msg:  cHello(1, "ada"),
			hex:  "09 0a 07 08 01 12 03 61 64 61",
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
			hex: "20 1a 1e 08 78 12 1a 08 01 10 78 1a 12 09 00 00 00 00 00 00 10 40" +
				" 11 00 00 00 00 00 00 04 40 28 75",
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

func TestAppendFrame_SizeLimit(t *testing.T) {
	for _, tc := range []struct {
		name    string
		msg     proto.Message
		tooBig  bool
		wantLen int // body length when accepted
	}{
		{"exactly MaxFrameSize", cGoodbye(strings.Repeat("x", maxGoodbyeReason)), false, MaxFrameSize},
		{"one byte over", cGoodbye(strings.Repeat("x", maxGoodbyeReason+1)), true, 0},
		{"far over", cGoodbye(strings.Repeat("x", 1<<20)), true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dst := []byte("keep")
			got, err := AppendFrame(dst, tc.msg)
			if tc.tooBig {
				if !errors.Is(err, ErrFrameTooLarge) {
					t.Fatalf("AppendFrame error = %v, want ErrFrameTooLarge", err)
				}
				if string(got) != "keep" {
					t.Fatalf("AppendFrame changed dst on error: %q", got)
				}
				return
			}
			if err != nil {
				t.Fatalf("AppendFrame: %v", err)
			}
			size, n := protowire.ConsumeVarint(got[4:])
			if n < 0 || int(size) != tc.wantLen || len(got) != 4+n+tc.wantLen {
				t.Fatalf("frame prefix %d (%d bytes), total %d; want body %d", size, n, len(got), tc.wantLen)
			}
			out := newLike(tc.msg)
			if err := NewFrameReader(bytes.NewReader(got[4:])).Read(out); err != nil {
				t.Fatalf("Read of a MaxFrameSize frame: %v", err)
			}
			if !proto.Equal(out, tc.msg) {
				t.Fatal("MaxFrameSize frame did not round trip")
			}
		})
	}
}

// repeatReader yields p over and over, forever.
type repeatReader struct {
	p   []byte
	off int
}

func (r *repeatReader) Read(b []byte) (int, error) {
	n := 0
	for n < len(b) {
		c := copy(b[n:], r.p[r.off:])
		n += c
		r.off = (r.off + c) % len(r.p)
	}
	return n, nil
}

func TestFrameReader_LengthAboveMaxRejectedWithoutAllocating(t *testing.T) {
	for _, tc := range []struct {
		name string
		size uint64
	}{
		{"MaxFrameSize+1", MaxFrameSize + 1},
		{"1 GiB", 1 << 30},
		{"max uint64 (10-byte varint)", math.MaxUint64},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prefix := protowire.AppendVarint(nil, tc.size)
			// A single frame: the error must wrap ErrFrameTooLarge.
			err := NewFrameReader(bytes.NewReader(append(prefix, 0x0a, 0x00))).Read(&tankv1.ClientMessage{})
			if !errors.Is(err, ErrFrameTooLarge) {
				t.Fatalf("Read error = %v, want one wrapping ErrFrameTooLarge", err)
			}

			// An endless stream of such prefixes: every Read fails on the prefix alone, so
			// the bytes allocated per Read must stay tiny, far below the announced size.
			fr := NewFrameReader(&repeatReader{p: prefix})
			var m tankv1.ClientMessage
			const reads = 1000
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			for range reads {
				if err := fr.Read(&m); !errors.Is(err, ErrFrameTooLarge) {
					t.Fatalf("Read error = %v, want ErrFrameTooLarge", err)
				}
			}
			runtime.ReadMemStats(&after)
			if per := (after.TotalAlloc - before.TotalAlloc) / reads; per > 8192 {
				t.Fatalf("Read allocated %d bytes per oversized prefix; it must not allocate the body", per)
			}
		})
	}
}

func TestFrameReader_Truncated(t *testing.T) {
	full, err := AppendFrame(nil, cHello(1, "ada"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		in   []byte
	}{
		{"varint continuation then EOF", []byte{0x80}},
		{"two-byte varint cut", []byte{0xff, 0xff}},
		{"prefix only", full[:1]},
		{"prefix and part of body", full[:5]},
		{"all but the last byte", full[:len(full)-1]},
		{"whole frame then a cut one", append(append([]byte{}, full...), full[:3]...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for rname, r := range map[string]io.Reader{
				"plain":    bytes.NewReader(tc.in),
				"one byte": iotest.OneByteReader(bytes.NewReader(tc.in)),
				"data+EOF": iotest.DataErrReader(bytes.NewReader(tc.in)),
			} {
				fr := NewFrameReader(r)
				var m tankv1.ClientMessage
				var err error
				for range 3 { // read past any complete leading frame
					if err = fr.Read(&m); err != nil {
						break
					}
				}
				if !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Errorf("%s: Read error = %v, want io.ErrUnexpectedEOF (possibly wrapped)", rname, err)
				}
			}
		})
	}
}

func TestFrameReader_CleanEOF(t *testing.T) {
	err := NewFrameReader(bytes.NewReader(nil)).Read(&tankv1.ClientMessage{})
	if err != io.EOF {
		t.Fatalf("Read on an empty stream = %v, want io.EOF itself", err)
	}
}

func TestFrameReader_GarbageIsAnErrorNotAPanic(t *testing.T) {
	frame := func(body ...byte) []byte { return append(protowire.AppendVarint(nil, uint64(len(body))), body...) }
	for _, tc := range []struct {
		name string
		in   []byte
	}{
		{"wire type 7", frame(0xff)},
		{"field number 0", frame(0x00)},
		{"hello length beyond the frame", frame(0x0a, 0x05, 0x08)},
		{"invalid utf-8 in name", frame(0x0a, 0x04, 0x12, 0x02, 0xff, 0xfe)},
		{"fixed64 cut short", frame(0x12, 0x03, 0x11, 0x00, 0x00)},
		{"varint overflow in body", frame(0x12, 0x0b, 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)},
		{"11-byte length prefix", bytes.Repeat([]byte{0xff}, 11)},
		{"end group without start", frame(0x0c)},
		{"ascii text", []byte("GET / HTTP/1.1\r\n\r\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var m tankv1.ClientMessage
			err := NewFrameReader(bytes.NewReader(tc.in)).Read(&m)
			if err == nil {
				t.Fatalf("Read accepted garbage % x as %v", tc.in, &m)
			}
			if err == io.EOF || errors.Is(err, ErrFrameTooLarge) {
				t.Fatalf("Read error = %v, want a decode error", err)
			}
		})
	}
}

// netErr is a net.Error like the one a kcp-go session returns when its deadline passes.
type netErr struct{ timeout bool }

func (e *netErr) Error() string   { return "i/o timeout" }
func (e *netErr) Timeout() bool   { return e.timeout }
func (e *netErr) Temporary() bool { return e.timeout }

var _ net.Error = (*netErr)(nil)

// failingReader returns data, then err on every later call, like a connection whose read
// deadline has passed or that has been closed.
type failingReader struct {
	data []byte
	err  error
}

func (r *failingReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func TestFrameReader_UnderlyingErrorIsReturnedAsIs(t *testing.T) {
	full, err := AppendFrame(nil, cMove(7, -1, 0.5, 50))
	if err != nil {
		t.Fatal(err)
	}
	timeout := &netErr{timeout: true}
	for _, tc := range []struct {
		name string
		data []byte
		err  error
	}{
		{"timeout at a frame boundary", nil, timeout},
		{"timeout inside the length prefix", []byte{0x80}, timeout},
		{"timeout after the prefix", full[:1], timeout},
		{"timeout inside the body", full[:10], timeout},
		{"closed inside the body", full[:10], net.ErrClosed},
		{"closed pipe after the prefix", full[:1], io.ErrClosedPipe},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fr := NewFrameReader(&failingReader{data: tc.data, err: tc.err})
			got := fr.Read(&tankv1.ClientMessage{})
			if got != tc.err {
				t.Fatalf("Read error = %v (%T), want the reader's own %v", got, got, tc.err)
			}
			if tc.err == timeout && !IsTimeout(got) {
				t.Fatal("IsTimeout is false for a timeout")
			}
		})
	}
	// A complete frame before the failure is still delivered.
	fr := NewFrameReader(&failingReader{data: full, err: timeout})
	var m tankv1.ClientMessage
	if err := fr.Read(&m); err != nil || m.GetMoveInput().GetTick() != 7 {
		t.Fatalf("first Read = %v, %v; want the move input", err, &m)
	}
	if err := fr.Read(&m); err != timeout {
		t.Fatalf("second Read = %v, want the timeout", err)
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

// fuzzSeeds are frames and near-frames worth starting from.
func fuzzSeeds(tb testing.TB) [][]byte {
	frame := func(m proto.Message) []byte {
		b, err := AppendFrame(nil, m)
		if err != nil {
			tb.Fatal(err)
		}
		return b
	}
	var all []byte
	for _, m := range sampleMessages() {
		if proto.Size(m) < 1024 {
			all = append(all, frame(m)...)
		}
	}
	return [][]byte{
		frame(cHello(1, "ada")),
		frame(cMove(7, -1, 0.5, 50)),
		frame(sSnapshot(120, pState(1, 120, 4, 2.5, 0, 117), pState(2, 120, 36, 21, 3.14159, 0))),
		append(frame(cMove(1, 0, 1, 50)), frame(cMove(2, 1, 1, 50))...), // two frames back to back
		all,                      // every kind, both directions, concatenated
		{0x00},                   // an empty envelope: valid, no kind set
		{0x80, 0x80, 0x01},       // non-minimal prefix = 16384 = MaxFrameSize, then no body
		{0x81, 0x80, 0x01, 0x0a}, // 16385: one above MaxFrameSize
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01},       // max uint64
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, // varint overflow
		{0x80},                         // varint cut
		{0x05, 0x0a, 0x03},             // prefix promises more than there is
		{0x04, 0x0a, 0x02, 0x12, 0xff}, // string length past the end of the nested message
		{0x06, 0x0a, 0x04, 0x12, 0x02, 0xc3, 0x28},    // invalid UTF-8 name
		{0x04, 0x7a, 0x02, 0x08, 0x01},                // unknown field 15 in the envelope
		{0x06, 0x0a, 0x02, 0x08, 0x01, 0x12, 0x00},    // hello then a second oneof member
		frame(cMove(1, math.NaN(), math.Inf(-1), 50)), // not finite: decodes fine, the server refuses it
	}
}

// FuzzFrameReader feeds arbitrary bytes to FrameReader.Read as both envelope types. Read
// must never panic, and whatever it decodes must survive AppendFrame and a second Read
// unchanged.
func FuzzFrameReader(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, newMsg := range []func() proto.Message{
			func() proto.Message { return new(tankv1.ClientMessage) },
			func() proto.Message { return new(tankv1.ServerMessage) },
		} {
			fr := NewFrameReader(bytes.NewReader(data))
			for range 32 {
				m := newMsg()
				if err := fr.Read(m); err != nil {
					break
				}
				frame, err := AppendFrame(nil, m)
				if err != nil {
					if errors.Is(err, ErrFrameTooLarge) && proto.Size(m) > MaxFrameSize {
						continue // decoding merged fields into something larger: fine
					}
					t.Fatalf("AppendFrame of a decoded %T: %v", m, err)
				}
				m2 := newMsg()
				if err := NewFrameReader(bytes.NewReader(frame)).Read(m2); err != nil {
					t.Fatalf("re-read of a re-encoded %T failed: %v\nframe % x", m, err, frame)
				}
				if !proto.Equal(m, m2) {
					t.Fatalf("re-encoding changed the message:\nfirst  %v\nsecond %v", m, m2)
				}
				again, err := AppendFrame(nil, m2)
				if err != nil || !bytes.Equal(again, frame) {
					t.Fatalf("encoding is not stable: %v\n% x\n% x", err, frame, again)
				}
			}
		}
	})
}
