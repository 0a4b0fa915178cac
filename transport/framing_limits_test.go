package transport

import (
	"bytes"
	"errors"
	"math"
	"runtime"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	tankv1 "tanknet/proto/tank/v1"
)

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
