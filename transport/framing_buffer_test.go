package transport

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	tankv1 "tanknet/proto/tank/v1"
)

// Tests of the FrameReader's own buffer: how frames that arrive in pieces, or several at
// once, are put together, and that the buffer never grows.

// TestFrameReader_LargeFrameInOneByteReads: a frame with a two-byte length prefix, read
// one byte at a time, is decoded whole, and the next Read finds the clean end.
func TestFrameReader_LargeFrameInOneByteReads(t *testing.T) {
	want := cGoodbye(strings.Repeat("z", 5000))
	fr := NewFrameReader(iotest.OneByteReader(bytes.NewReader(frameOf(t, nil, want))))
	var m tankv1.ClientMessage
	if err := fr.Read(&m); err != nil || !proto.Equal(&m, want) {
		t.Fatalf("Read = %v (%d bytes of reason), want the whole goodbye", err, len(m.GetGoodbye().GetReason()))
	}
	if err := fr.Read(&m); err != io.EOF {
		t.Fatalf("Read after the frame = %v, want io.EOF", err)
	}
}

// TestFrameReader_TimeoutInsideThePrefix: the first byte of a two-byte length prefix, a
// timeout, then the rest: the timeout is the connection's own and the next Read decodes the
// frame whole.
func TestFrameReader_TimeoutInsideThePrefix(t *testing.T) {
	frame := frameOf(t, nil, cGoodbye(strings.Repeat("p", 300)))
	fr := NewFrameReader(&slowReader{chunks: [][]byte{frame[:1], nil, frame[1:]}})
	var m tankv1.ClientMessage
	if err := fr.Read(&m); !IsTimeout(err) {
		t.Fatalf("first Read = %v, want the timeout", err)
	}
	if err := fr.Read(&m); err != nil || len(m.GetGoodbye().GetReason()) != 300 {
		t.Fatalf("Read after the timeout = %v (%d bytes of reason), want the whole goodbye", err, len(m.GetGoodbye().GetReason()))
	}
}

// TestFrameReader_ManyFramesInOneRead: frames that arrive in one read of the source are
// decoded one per Read without reading again; the read that follows them finds the timeout.
func TestFrameReader_ManyFramesInOneRead(t *testing.T) {
	var stream []byte
	for tick := range uint32(100) {
		stream = frameOf(t, stream, cMove(tick, 0, 1, 50))
	}
	src := &slowReader{chunks: [][]byte{stream}}
	fr := NewFrameReader(src)
	var m tankv1.ClientMessage
	for tick := range uint32(100) {
		if err := fr.Read(&m); err != nil || m.GetMoveInput().GetTick() != tick {
			t.Fatalf("Read %d = %v, %v; want the move of tick %d", tick, err, &m, tick)
		}
	}
	if err := fr.Read(&m); !IsTimeout(err) {
		t.Fatalf("Read after the last frame = %v, want the source's timeout", err)
	}
	// ReadIfComplete hands out frames that have arrived together one at a time, too.
	fr = NewFrameReader(&slowReader{chunks: [][]byte{stream}})
	for tick := range uint32(100) {
		if ok, err := fr.ReadIfComplete(&m); !ok || err != nil || m.GetMoveInput().GetTick() != tick {
			t.Fatalf("ReadIfComplete %d = %v, %v, %v; want the move of tick %d", tick, ok, err, &m, tick)
		}
	}
	if ok, err := fr.ReadIfComplete(&m); ok || err != nil {
		t.Fatalf("ReadIfComplete after the last frame = %v, %v; want not yet, no error", ok, err)
	}
}

// chunkedReader hands out a stream in pieces of sizes drawn from a seeded source, each
// piece at most the reader's buffer, so pieces cross frame boundaries anywhere.
type chunkedReader struct {
	rest []byte
	rng  *rand.Rand
	max  int
}

func (r *chunkedReader) Read(p []byte) (int, error) {
	if len(r.rest) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), 1+r.rng.IntN(r.max))], r.rest)
	r.rest = r.rest[n:]
	return n, nil
}

// TestFrameReader_LongStreamKeepsItsBuffer: many times the buffer's size of frames, of
// mixed sizes up to MaxFrameSize and read in pieces that cross their boundaries, come out
// whole and in order, and the reader still holds the one buffer it began with.
func TestFrameReader_LongStreamKeepsItsBuffer(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 1))
	var stream []byte
	var want []*tankv1.ClientMessage
	for i := range 2000 {
		var m *tankv1.ClientMessage
		switch i % 50 {
		case 7:
			m = cGoodbye(strings.Repeat("m", maxGoodbyeReason)) // exactly MaxFrameSize
		case 8, 9, 10:
			m = cGoodbye(strings.Repeat("g", rng.IntN(4000)))
		default:
			m = cMove(uint32(i), 0.5, -1, 50)
		}
		stream = frameOf(t, stream, m)
		want = append(want, m)
	}
	if len(stream) < 20*(MaxFrameSize+protowire.SizeVarint(MaxFrameSize)) {
		t.Fatalf("the stream is only %d bytes, want many buffers' worth", len(stream))
	}
	fr := NewFrameReader(&chunkedReader{rest: stream, rng: rng, max: 3 * MaxFrameSize / 2})
	buf := fr.buf
	var m tankv1.ClientMessage
	for i, w := range want {
		if err := fr.Read(&m); err != nil || !proto.Equal(&m, w) {
			t.Fatalf("frame %d: Read = %v, want the frame as sent (a %d-byte message)", i, err, proto.Size(w))
		}
	}
	if err := fr.Read(&m); err != io.EOF {
		t.Fatalf("Read after the last frame = %v, want io.EOF", err)
	}
	if &fr.buf[0] != &buf[0] || len(fr.buf) != len(buf) || cap(fr.buf) != cap(buf) {
		t.Fatalf("the buffer changed (len %d cap %d, was %d %d): it must never grow", len(fr.buf), cap(fr.buf), len(buf), cap(buf))
	}
}

// TestFrameReader_WholeFrameStartingLate: one read brings a small frame and the start of a
// frame of MaxFrameSize that fills the buffer to its end; the rest of the big frame only
// fits once the small one's bytes are given up, and it is decoded whole.
func TestFrameReader_WholeFrameStartingLate(t *testing.T) {
	big := cGoodbye(strings.Repeat("L", maxGoodbyeReason))
	stream := frameOf(t, frameOf(t, nil, cMove(1, 0, 1, 50)), big)
	fill := len(NewFrameReader(nil).buf)
	fr := NewFrameReader(&slowReader{chunks: [][]byte{stream[:fill], stream[fill:]}})
	var m tankv1.ClientMessage
	if err := fr.Read(&m); err != nil || m.GetMoveInput().GetTick() != 1 {
		t.Fatalf("first Read = %v, %v; want the move", err, &m)
	}
	if err := fr.Read(&m); err != nil || !proto.Equal(&m, big) {
		t.Fatalf("second Read = %v, want the goodbye of MaxFrameSize", err)
	}
}

// TestFrameReader_LongestPrefixWithMaxFrame: a non-minimal length prefix of ten bytes
// before a body of MaxFrameSize is legal, and together they fill the buffer exactly.
func TestFrameReader_LongestPrefixWithMaxFrame(t *testing.T) {
	want := cGoodbye(strings.Repeat("n", maxGoodbyeReason))
	body, err := proto.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	prefix := []byte{0x80, 0x80, 0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00} // 16384
	if size, n := protowire.ConsumeVarint(prefix); n != len(prefix) || size != MaxFrameSize || len(body) != MaxFrameSize {
		t.Fatalf("test setup: prefix %d (%d bytes), body %d", size, n, len(body))
	}
	fr := NewFrameReader(iotest.HalfReader(bytes.NewReader(append(prefix, body...))))
	var m tankv1.ClientMessage
	if err := fr.Read(&m); err != nil || !proto.Equal(&m, want) {
		t.Fatalf("Read = %v, want the goodbye of MaxFrameSize", err)
	}
}

// dataErrReader returns its data and err from the same Read, then err alone; with once,
// it says err that first time only, and then returns nothing and no error.
type dataErrReader struct {
	data []byte
	err  error
	once bool
}

func (r *dataErrReader) Read(p []byte) (int, error) {
	n := copy(p, r.data)
	r.data = r.data[n:]
	err := r.err
	if r.once {
		r.err = nil
	}
	return n, err
}

// TestFrameReader_BytesThatComeWithAnError: a read may return bytes and an error at once.
// Bytes that finish a frame are decoded and the error comes on the next Read; bytes that
// leave it unfinished give the error at once (for an end of stream, a truncated frame).
func TestFrameReader_BytesThatComeWithAnError(t *testing.T) {
	frame := frameOf(t, nil, cMove(9, 1, 1, 50))
	timeout := &netErr{timeout: true}
	var m tankv1.ClientMessage
	fr := NewFrameReader(&dataErrReader{data: frame, err: timeout})
	if err := fr.Read(&m); err != nil || m.GetMoveInput().GetTick() != 9 {
		t.Fatalf("Read of a frame that came with a timeout = %v, %v; want the move", err, &m)
	}
	if err := fr.Read(&m); err != timeout {
		t.Fatalf("next Read = %v, want the timeout", err)
	}
	fr = NewFrameReader(&dataErrReader{data: frame[:4], err: timeout})
	if err := fr.Read(&m); err != timeout {
		t.Fatalf("Read of part of a frame with a timeout = %v, want the timeout", err)
	}
	fr = NewFrameReader(&dataErrReader{data: frame[:4], err: io.EOF})
	if err := fr.Read(&m); !errors.Is(err, io.ErrUnexpectedEOF) || !strings.HasPrefix(err.Error(), "transport: bad frame: ") {
		t.Fatalf("Read of part of a frame with the end of stream = %v, want a bad frame wrapping io.ErrUnexpectedEOF", err)
	}
}

// TestFrameReader_AnErrorAfterWholeFramesIsKept: a source that says once that it failed,
// with the bytes of two whole frames, has both frames decoded and then its error returned,
// by Read and by ReadIfComplete, though it never says it again.
func TestFrameReader_AnErrorAfterWholeFramesIsKept(t *testing.T) {
	closed := errors.New("connection closed")
	two := frameOf(t, frameOf(t, nil, cMove(1, 1, 1, 50)), cMove(2, 1, 1, 50))
	var m tankv1.ClientMessage
	fr := NewFrameReader(&dataErrReader{data: two, err: closed, once: true})
	for tick := uint32(1); tick <= 2; tick++ {
		if err := fr.Read(&m); err != nil || m.GetMoveInput().GetTick() != tick {
			t.Fatalf("Read %d = %v, %v; want move %d", tick, err, &m, tick)
		}
	}
	if err := fr.Read(&m); err != closed {
		t.Fatalf("Read after the frames = %v, want the source's %v", err, closed)
	}
	fr = NewFrameReader(&dataErrReader{data: two, err: closed, once: true})
	for tick := uint32(1); tick <= 2; tick++ {
		if ok, err := fr.ReadIfComplete(&m); !ok || err != nil || m.GetMoveInput().GetTick() != tick {
			t.Fatalf("ReadIfComplete %d = %v, %v, %v; want move %d", tick, ok, err, &m, tick)
		}
	}
	if _, err := fr.ReadIfComplete(&m); err != closed {
		t.Fatalf("ReadIfComplete after the frames = %v, want the source's %v", err, closed)
	}
}

// emptyReader returns neither bytes nor an error, forever.
type emptyReader struct{ reads int }

func (r *emptyReader) Read([]byte) (int, error) { r.reads++; return 0, nil }

// TestFrameReader_SourceWithoutProgress: a source that keeps returning nothing and no error
// ends in io.ErrNoProgress after a bounded number of reads, as with bufio.
func TestFrameReader_SourceWithoutProgress(t *testing.T) {
	src := &emptyReader{}
	if err := NewFrameReader(src).Read(&tankv1.ClientMessage{}); err != io.ErrNoProgress || src.reads != maxEmptyReads {
		t.Fatalf("Read = %v after %d reads, want io.ErrNoProgress after %d", err, src.reads, maxEmptyReads)
	}
}

// TestFrameReader_AllocatesOnlyWhatDecodingDoes: reading a frame allocates what
// proto.Unmarshal of its body allocates, nothing for the framing.
func TestFrameReader_AllocatesOnlyWhatDecodingDoes(t *testing.T) {
	for name, msg := range map[string]proto.Message{
		"empty envelope": &tankv1.ClientMessage{},
		"move":           cMove(7, -1, 0.5, 50),
		"snapshot":       sSnapshot(120, pState(1, 120, 4, 2.5, 0, 117), pState(2, 120, 36, 21, 3, 0)),
	} {
		t.Run(name, func(t *testing.T) {
			frame := frameOf(t, nil, msg)
			body := frame[protowire.SizeVarint(uint64(proto.Size(msg))):]
			m := newLike(msg)
			decode := testing.AllocsPerRun(100, func() {
				if err := proto.Unmarshal(body, m); err != nil {
					t.Fatal(err)
				}
			})
			r := bytes.NewReader(frame)
			fr := NewFrameReader(r)
			read := testing.AllocsPerRun(100, func() {
				r.Reset(frame)
				if err := fr.Read(m); err != nil {
					t.Fatal(err)
				}
			})
			if read != decode {
				t.Fatalf("Read allocates %v times per frame, proto.Unmarshal %v: framing must allocate nothing", read, decode)
			}
		})
	}
}
