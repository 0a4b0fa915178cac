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
	buf, _ := fr.r.Peek(fr.r.Buffered())
	size, n := protowire.ConsumeVarint(buf)
	switch {
	case n < 0 && len(buf) < binary.MaxVarintLen64:
		return false, nil // the length prefix is still arriving
	case n >= 0 && size <= MaxFrameSize && uint64(len(buf)-n) < size:
		return false, nil // the body is still arriving
	}
	return true, fr.Read(m) // whole, or malformed: Read decodes it or says why not
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
		size, n := protowire.ConsumeVarint(buf)
		switch {
		case n < 0 && len(buf) >= binary.MaxVarintLen64, n >= 0 && size > MaxFrameSize:
			return nil // malformed: let the decoder say so
		case n >= 0 && uint64(len(buf)-n) >= size:
			return nil // whole
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
