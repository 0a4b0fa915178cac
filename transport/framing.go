package transport

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// ProtocolVersion is the Hello.protocol_version this package's peers speak. Server and
// client take it from here so they cannot drift apart.
const ProtocolVersion = 2

// MaxFrameSize is the largest message body, in bytes, either side accepts. A snapshot of 64
// players is about 2 KiB, so this leaves room to grow while keeping a hostile length prefix
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

// FrameReader decodes frames from a byte stream. It reads the stream into one buffer of its
// own, large enough for the largest frame, and decodes each frame's body where it lies, so
// framing allocates nothing per frame.
type FrameReader struct {
	src io.Reader
	buf []byte // MaxFrameSize plus the longest length prefix: a whole frame always fits
	// buf[head:tail] has arrived and is not yet decoded: the start of the next frame, or
	// (after a timeout, or when one read brought several) more than one frame.
	head, tail int
	// pending is an error the source returned together with bytes that finished a frame:
	// it is returned once the frames before it are read. A timeout is not kept.
	pending error
}

// NewFrameReader returns a FrameReader on r. Its buffer, allocated here once, holds a frame
// of MaxFrameSize with the longest length prefix.
func NewFrameReader(r io.Reader) *FrameReader {
	return &FrameReader{src: r, buf: make([]byte, binary.MaxVarintLen64+MaxFrameSize)}
}

// Read decodes the next frame into m, reading from the source until all of the frame has
// arrived. A length prefix above MaxFrameSize yields an error wrapping ErrFrameTooLarge; a
// malformed length prefix, or bytes that are not a valid m, yield a "transport: bad frame"
// error; a stream that ends mid-frame yields such an error wrapping io.ErrUnexpectedEOF, and
// one that ends between frames io.EOF itself. A timeout or a failed connection is returned as the
// source said it and consumes nothing (the frame is decoded only once it has wholly
// arrived), so Read may be called again after a timeout; an error the source returned with
// the bytes of whole frames comes after those frames. After any other error the stream
// position is undefined, so the caller should drop the connection.
func (fr *FrameReader) Read(m proto.Message) error {
	readErr := fr.pending // the source's, judged after the bytes that came with it
	fr.pending = nil
	for {
		prefix, size, err := frameAt(fr.buf[fr.head:fr.tail])
		switch {
		case err != nil:
			return err
		case prefix > 0:
			if readErr != nil && !IsTimeout(readErr) {
				fr.pending = readErr
			}
			body := fr.buf[fr.head+prefix : fr.head+prefix+size]
			fr.head += prefix + size
			if err := proto.Unmarshal(body, m); err != nil {
				return fmt.Errorf("transport: bad frame: %w", err)
			}
			return nil
		case readErr == nil:
			readErr = fr.fill()
		case errors.Is(readErr, io.EOF) && fr.tail > fr.head:
			return fmt.Errorf("transport: bad frame: %w", io.ErrUnexpectedEOF)
		default:
			return readErr // nothing consumed: after a timeout, Read may be called again
		}
	}
}

// frameAt looks at b, the bytes that have arrived, for the next frame. Once all of the frame
// is in b it returns the lengths of its prefix and its body; while the frame is still
// arriving, zeros. A length prefix that is no varint, or is above MaxFrameSize, is an error
// as soon as it can be told.
func frameAt(b []byte) (prefix, size int, err error) {
	v, n := protowire.ConsumeVarint(b)
	switch {
	case n < 0 && len(b) < binary.MaxVarintLen64:
		return 0, 0, nil // the length prefix is still arriving
	case n < 0:
		return 0, 0, fmt.Errorf("transport: bad frame: %w", protowire.ParseError(n))
	case v > MaxFrameSize:
		return 0, 0, fmt.Errorf("%w: length prefix %d > %d", ErrFrameTooLarge, v, MaxFrameSize)
	case uint64(len(b)-n) < v:
		return 0, 0, nil // the body is still arriving
	}
	return n, int(v), nil
}

// maxEmptyReads bounds the reads in a row that bring neither a byte nor an error before fill
// gives up with io.ErrNoProgress, as bufio does: such a source is broken, not slow.
const maxEmptyReads = 100

// fill reads once from the source into the free end of the buffer and returns the source's
// error, which may come with bytes. It first moves the bytes not yet decoded to the start of
// the buffer, so the buffer never grows however long the stream. A buffer that is full holds
// a whole frame (or a malformed prefix), and then fill reads nothing.
func (fr *FrameReader) fill() error {
	if fr.head > 0 {
		fr.tail = copy(fr.buf, fr.buf[fr.head:fr.tail])
		fr.head = 0
	}
	if fr.tail == len(fr.buf) {
		return nil
	}
	for range maxEmptyReads {
		n, err := fr.src.Read(fr.buf[fr.tail:])
		fr.tail += n
		if n > 0 || err != nil {
			return err
		}
	}
	return io.ErrNoProgress
}
