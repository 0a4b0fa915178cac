package transport

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"

	"google.golang.org/protobuf/encoding/protodelim"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// ProtocolVersion is the Hello.protocol_version this package's peers speak. Server and
// client take it from here so they cannot drift apart.
const ProtocolVersion = 2

// MaxFrameSize is the largest message body, in bytes, either side accepts. A snapshot of 64
// players is about 3 KiB, so this leaves room to grow while keeping a hostile length prefix
// from making a peer allocate much.
const MaxFrameSize = 16 << 10

// ErrFrameTooLarge reports a frame whose length prefix exceeds MaxFrameSize.
var ErrFrameTooLarge = errors.New("transport: frame exceeds maximum size")

// AppendFrame appends m to dst as one frame, a varint length followed by the message bytes,
// exactly as protodelim.MarshalTo writes it, and returns the extended slice. A message whose
// encoding exceeds MaxFrameSize is an error and leaves dst unchanged.
func AppendFrame(dst []byte, m proto.Message) ([]byte, error) {
	size := proto.Size(m)
	if size > MaxFrameSize {
		return dst, fmt.Errorf("%w: %d bytes > %d", ErrFrameTooLarge, size, MaxFrameSize)
	}
	out := slices.Grow(dst, binary.MaxVarintLen64+size) // one allocation at most
	out = protowire.AppendVarint(out, uint64(size))
	out, err := proto.MarshalOptions{UseCachedSize: true}.MarshalAppend(out, m)
	if err != nil {
		return dst, fmt.Errorf("transport: marshal %T: %w", m, err)
	}
	return out, nil
}

// FrameReader decodes frames from a byte stream.
type FrameReader struct {
	src *stickyReader
	r   *bufio.Reader
}

// stickyReader remembers the first error of the stream under a FrameReader, so a timeout or
// a closed connection is reported as such rather than as a malformed frame.
type stickyReader struct {
	r   io.Reader
	err error
}

func (s *stickyReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && s.err == nil {
		s.err = err
	}
	return n, err
}

// NewFrameReader returns a FrameReader on r, buffered so that a frame of MaxFrameSize is
// decoded without an extra allocation.
func NewFrameReader(r io.Reader) *FrameReader {
	src := &stickyReader{r: r}
	return &FrameReader{src: src, r: bufio.NewReaderSize(src, MaxFrameSize+binary.MaxVarintLen64)}
}

// Read decodes the next frame into m. A length prefix above MaxFrameSize yields an error
// wrapping ErrFrameTooLarge; bytes that are not a valid m yield a decode error; a stream that
// ends mid-frame yields io.ErrUnexpectedEOF. A timeout or a failed connection consumes
// nothing (the frame is decoded only once it has wholly arrived), so Read may be called
// again after a timeout; after any other error the stream position is undefined, so the
// caller should drop the connection.
func (fr *FrameReader) Read(m proto.Message) error {
	fr.src.err = nil // a caller may read on after a timeout; judge this frame on its own
	if err := fr.awaitFrame(); err != nil {
		return err // nothing consumed: after a timeout, Read may be called again
	}
	err := protodelim.UnmarshalOptions{MaxSize: MaxFrameSize}.UnmarshalFrom(fr.r, m)
	var tooLarge *protodelim.SizeTooLargeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &tooLarge):
		return fmt.Errorf("%w: length prefix %d > %d", ErrFrameTooLarge, tooLarge.Size, MaxFrameSize)
	case errors.Is(err, io.EOF):
		return err
	case fr.src.err != nil && !errors.Is(fr.src.err, io.EOF):
		return fr.src.err // the connection failed (timeout, closed), not the peer's bytes
	default:
		return fmt.Errorf("transport: bad frame: %w", err)
	}
}
