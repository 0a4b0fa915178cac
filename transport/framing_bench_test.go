package transport

import (
	"bytes"
	"io"
	"testing"

	"google.golang.org/protobuf/proto"

	tankv1 "tanknet/proto/tank/v1"
)

// BenchmarkFrameReader_Read decodes frames from a reused FrameReader, as a connection does:
// one small MoveInput per read, one 64-tank snapshot (the largest a full room sends on the
// stream) per read, and 64 MoveInputs that arrive in one read of the source.
func BenchmarkFrameReader_Read(b *testing.B) {
	many := make([]*tankv1.PlayerState, 64)
	for i := range many {
		many[i] = pState(uint32(i+1), 1<<20, float64(i)*0.37, 24.4-float64(i)*0.1, float64(i)*0.09, 1<<20-3)
	}
	var stream []byte
	for i := range 64 {
		stream = frameOf(b, stream, cMove(uint32(i+1), 0.25, 1, 50))
	}
	for _, bc := range []struct {
		name   string
		stream []byte
		frames int
		msg    proto.Message
	}{
		{"move", frameOf(b, nil, cMove(7, -1, 0.5, 50)), 1, new(tankv1.ClientMessage)},
		{"snapshot 64", frameOf(b, nil, sSnapshot(1<<20, many...)), 1, new(tankv1.ServerMessage)},
		{"64 moves in one read", stream, 64, new(tankv1.ClientMessage)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			r := bytes.NewReader(bc.stream)
			fr := NewFrameReader(r)
			b.ReportAllocs()
			b.SetBytes(int64(len(bc.stream)))
			for range b.N {
				r.Reset(bc.stream)
				for range bc.frames {
					if err := fr.Read(bc.msg); err != nil {
						b.Fatal(err)
					}
				}
			}
			if err := fr.Read(bc.msg); err != io.EOF {
				b.Fatalf("Read after the stream = %v, want io.EOF", err)
			}
		})
	}
}

// frameOf appends m to dst as a frame.
func frameOf(tb testing.TB, dst []byte, m proto.Message) []byte {
	out, err := AppendFrame(dst, m)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}
