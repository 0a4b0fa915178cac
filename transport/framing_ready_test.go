package transport

import (
	"errors"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	tankv1 "tanknet/proto/tank/v1"
)

// slowReader hands out its chunks one per Read and times out between them, like a
// connection whose bytes arrive over time.
type slowReader struct{ chunks [][]byte }

type timeoutErr struct{}

func (timeoutErr) Error() string   { return "timeout" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }

func (r *slowReader) Read(p []byte) (int, error) {
	if len(r.chunks) == 0 || r.chunks[0] == nil {
		if len(r.chunks) > 0 {
			r.chunks = r.chunks[1:]
		}
		return 0, timeoutErr{}
	}
	n := copy(p, r.chunks[0])
	r.chunks = r.chunks[1:]
	return n, nil
}

func TestFrameReader_ReadIfCompleteNeverConsumesPartFrames(t *testing.T) {
	frame, err := AppendFrame(nil, cGoodbye(strings.Repeat("x", 300))) // a two-byte length prefix
	if err != nil {
		t.Fatal(err)
	}
	// Nothing yet, then one byte of the prefix, then the rest of the prefix and part of the
	// body, then the remainder: ReadIfComplete says "not yet" until the last chunk.
	src := &slowReader{chunks: [][]byte{nil, frame[:1], nil, frame[1:50], nil, frame[50:]}}
	fr := NewFrameReader(src)
	var m tankv1.ClientMessage
	for attempt := 0; ; attempt++ {
		ok, err := fr.ReadIfComplete(&m)
		if err != nil || attempt == 10 {
			t.Fatalf("attempt %d: ok %v err %v, want the goodbye within 10 attempts", attempt, ok, err)
		}
		if !ok {
			continue
		}
		if len(src.chunks) != 0 || len(m.GetGoodbye().GetReason()) != 300 {
			t.Fatalf("attempt %d: read %v with %d chunks still to come, want the whole goodbye only once all arrived", attempt, &m, len(src.chunks))
		}
		break
	}
	bad := NewFrameReader(&slowReader{chunks: [][]byte{oversizedPrefix()}})
	if ok, err := bad.ReadIfComplete(&m); !ok || !errors.Is(err, ErrFrameTooLarge) {
		t.Errorf("an oversized prefix: ok %v err %v, want ErrFrameTooLarge at once", ok, err)
	}
}

func oversizedPrefix() []byte { return protowire.AppendVarint(nil, MaxFrameSize+1) }

// TestFrameReader_TimeoutMidFrameLosesNothing: a read deadline expiring after part of a
// frame arrived consumes none of it, so the next Read decodes the whole frame.
func TestFrameReader_TimeoutMidFrameLosesNothing(t *testing.T) {
	frame, err := AppendFrame(nil, cGoodbye(strings.Repeat("y", 2000))) // spans two KCP messages
	if err != nil {
		t.Fatal(err)
	}
	fr := NewFrameReader(&slowReader{chunks: [][]byte{frame[:1100], nil, frame[1100:]}})
	var m tankv1.ClientMessage
	if err := fr.Read(&m); !IsTimeout(err) {
		t.Fatalf("first Read = %v, want the timeout", err)
	}
	if err := fr.Read(&m); err != nil || len(m.GetGoodbye().GetReason()) != 2000 {
		t.Fatalf("Read after the timeout = %v (%d bytes of reason), want the whole goodbye", err, len(m.GetGoodbye().GetReason()))
	}
}
