package discovery

import (
	"encoding/binary"
	"fmt"
)

// reader takes little-endian fields off b in order. The first short read or bad name sets
// err; every read after it returns zero, so a decoder checks err once at the end.
type reader struct {
	b   []byte
	at  int
	err error
}

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: "+format, append([]any{ErrMalformed}, args...)...)
	}
}

// take returns the next n bytes, or nil once the datagram is too short.
func (r *reader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if len(r.b)-r.at < n {
		r.fail("ends at byte %d, a field wants %d more", len(r.b), n-(len(r.b)-r.at))
		return nil
	}
	out := r.b[r.at : r.at+n]
	r.at += n
	return out
}

func (r *reader) u8() uint8 {
	if b := r.take(1); b != nil {
		return b[0]
	}
	return 0
}

func (r *reader) u16() uint16 {
	if b := r.take(2); b != nil {
		return binary.LittleEndian.Uint16(b)
	}
	return 0
}

func (r *reader) u64() uint64 {
	if b := r.take(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

// name reads a length byte and that many bytes of printable UTF-8, at most MaxName.
func (r *reader) name() string {
	n := int(r.u8())
	if r.err == nil && n > MaxName {
		r.fail("a name of %d bytes, at most %d", n, MaxName)
	}
	s := string(r.take(n))
	if r.err == nil && !printable(s) {
		r.fail("name %q is not printable UTF-8", s)
	}
	return s
}
