package transport

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"google.golang.org/protobuf/proto"

	tankv1 "tanknet/proto/tank/v1"
)

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
