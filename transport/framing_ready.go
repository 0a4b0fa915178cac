package transport

import (
	"encoding/binary"
	"errors"
	"io"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// ReadIfComplete decodes the next frame into m only if all of it has already arrived, and
// reports whether it did. It never waits for the network and never consumes part of a
// frame: when ok is false and err nil, the stream is untouched and Read may follow. The
// underlying reader must return at once when it has nothing (a Conn arranges this).
func (fr *FrameReader) ReadIfComplete(m proto.Message) (ok bool, err error) {
	if n := fr.r.Buffered(); n < fr.r.Size() {
		// One read of whatever has arrived since (the reader does not wait).
		if _, err := fr.r.Peek(n + 1); err != nil && !IsTimeout(err) && fr.r.Buffered() == 0 {
			return false, err
		}
	}
	if buf, _ := fr.r.Peek(fr.r.Buffered()); !frameDecidable(buf) {
		return false, nil // the length prefix or the body is still arriving
	}
	return true, fr.Read(m) // whole, or malformed: Read decodes it or says why not
}

// frameDecidable reports whether buf, the start of the stream, holds enough to decode the
// next frame or to tell that it is malformed (a length prefix that is no varint, or is
// above MaxFrameSize). Otherwise its length prefix or body is still arriving.
func frameDecidable(buf []byte) bool {
	size, n := protowire.ConsumeVarint(buf)
	if n < 0 {
		return len(buf) >= binary.MaxVarintLen64
	}
	return size > MaxFrameSize || uint64(len(buf)-n) >= size
}

// TryRecv reads the next message into m if it has fully arrived, without waiting; see
// FrameReader.ReadIfComplete. Like Recv, call it from one goroutine at a time.
func (c *Conn) TryRecv(m proto.Message) (ok bool, err error) {
	c.sess.SetReadDeadline(time.Now())
	return c.fr.ReadIfComplete(m)
}

// awaitFrame blocks until the next frame has wholly arrived in the buffer, consuming
// nothing, so that a read deadline expiring mid-frame loses no bytes. It returns early (nil)
// when the length prefix is malformed or too large, or the stream ends mid-frame: decoding
// then reports why. Otherwise it returns the error that stopped the wait.
func (fr *FrameReader) awaitFrame() error {
	for {
		buf, _ := fr.r.Peek(fr.r.Buffered())
		if frameDecidable(buf) {
			return nil // whole, or malformed: let the decoder say so
		}
		if _, err := fr.r.Peek(len(buf) + 1); err != nil && fr.r.Buffered() == len(buf) {
			if len(buf) > 0 && errors.Is(err, io.EOF) {
				return nil // the stream ended mid-frame: the decoder says so
			}
			if fr.src.err != nil && !errors.Is(fr.src.err, io.EOF) {
				return fr.src.err // timeout or closed connection, as the connection said it
			}
			return err
		}
	}
}
