package transport

import (
	"fmt"

	"google.golang.org/protobuf/proto"
)

// The unreliable lane: kcp-go's out-of-band (OOB) packets on the same session as the stream.
// A datagram is sent at once, never retransmitted, never reordered back and never
// acknowledged; it arrives once, twice or not at all. Its payload is one protobuf envelope
// without a length prefix (the packet is the frame).

// SendDatagram sends b as one unreliable datagram. It returns ErrDatagramTooLarge (wrapped)
// for a payload above MaxDatagramSize. A datagram the session cannot queue right now is
// dropped silently: the lane is best effort by design.
func (c *Conn) SendDatagram(b []byte) error {
	if len(b) > MaxDatagramSize {
		return fmt.Errorf("%w: %d bytes > %d", ErrDatagramTooLarge, len(b), MaxDatagramSize)
	}
	if c.closing.Load() {
		return c.closedError("datagram to")
	}
	if err := c.sess.SendOOB(b); err != nil {
		return fmt.Errorf("transport: datagram to %s: %w", c.sess.RemoteAddr(), err)
	}
	return nil
}

// OnDatagram makes f receive every datagram that arrives from now on, until Close; nil stops
// delivery.
// f runs on kcp-go's receive goroutine, which a server's listener shares among all its
// sessions: it must return quickly and never block. The slice is only valid during the
// call; f must copy what it keeps (decoding it, as DecodeDatagram does, copies).
func (c *Conn) OnDatagram(f func(b []byte)) {
	c.closeMu.Lock()
	defer c.closeMu.Unlock()
	if c.closing.Load() {
		return
	}
	// FEC is always on (see fecDataShards), so this cannot fail.
	_ = c.sess.SetOOBHandler(f)
}

// AppendDatagram appends m's encoding to dst for SendDatagram. A message whose encoding
// exceeds MaxDatagramSize is an error and leaves dst unchanged.
func AppendDatagram(dst []byte, m proto.Message) ([]byte, error) {
	if size := proto.Size(m); size > MaxDatagramSize {
		return dst, fmt.Errorf("%w: %d bytes > %d", ErrDatagramTooLarge, size, MaxDatagramSize)
	}
	out, err := proto.MarshalOptions{UseCachedSize: true}.MarshalAppend(dst, m)
	if err != nil {
		return dst, fmt.Errorf("transport: marshal %T: %w", m, err)
	}
	return out, nil
}

// DecodeDatagram decodes one datagram's payload into m (reset first). A payload above
// MaxDatagramSize, or bytes that are not a valid m, yield an error; m's content is then
// undefined. It never panics, whatever b holds.
func DecodeDatagram(b []byte, m proto.Message) error {
	if len(b) > MaxDatagramSize {
		return fmt.Errorf("%w: %d bytes > %d", ErrDatagramTooLarge, len(b), MaxDatagramSize)
	}
	if err := proto.Unmarshal(b, m); err != nil {
		return fmt.Errorf("transport: bad datagram: %w", err)
	}
	return nil
}
