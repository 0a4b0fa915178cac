package transport

import (
	"time"

	"google.golang.org/protobuf/proto"
)

// ReadIfComplete decodes the next frame into m only if all of it has already arrived, and
// reports whether it did. It never waits for the network and never consumes part of a
// frame: when ok is false and err nil, the stream is untouched and Read may follow. The
// underlying reader must return at once when it has nothing (a Conn arranges this).
func (fr *FrameReader) ReadIfComplete(m proto.Message) (ok bool, err error) {
	if !fr.decidable() && fr.pending != nil {
		return true, fr.Read(m) // the error that came after the last whole frame: Read says it
	}
	if !fr.decidable() {
		// One read of whatever has arrived since (the reader does not wait).
		if err := fr.fill(); err != nil && !IsTimeout(err) {
			if fr.tail == fr.head {
				return false, err
			}
			fr.pending = err // after the bytes that came before it
		}
	}
	if !fr.decidable() {
		return false, nil // the length prefix or the body is still arriving
	}
	return true, fr.Read(m) // whole, or malformed: Read decodes it or says why not, reading nothing
}

// decidable reports whether the bytes that have arrived hold the whole next frame, or enough
// of it to tell that it is malformed.
func (fr *FrameReader) decidable() bool {
	prefix, _, err := frameAt(fr.buf[fr.head:fr.tail])
	return prefix > 0 || err != nil
}

// TryRecv reads the next message into m if it has fully arrived, without waiting; see
// FrameReader.ReadIfComplete. Like Recv, call it from one goroutine at a time.
func (c *Conn) TryRecv(m proto.Message) (ok bool, err error) {
	if !c.until(c.sess.SetReadDeadline, time.Now()) {
		return false, c.closedError("read from")
	}
	ok, err = c.fr.ReadIfComplete(m)
	if err != nil && c.closing.Load() {
		return false, c.closedError("read from")
	}
	return ok, err
}
