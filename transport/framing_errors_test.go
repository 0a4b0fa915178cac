package transport

import (
	"bytes"
	"errors"
	"io"
	"net"
	"testing"
	"testing/iotest"

	"google.golang.org/protobuf/encoding/protowire"

	tankv1 "tanknet/proto/tank/v1"
)

func TestFrameReader_Truncated(t *testing.T) {
	full, err := AppendFrame(nil, cHello(1, "ada"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		in   []byte
	}{
		{"varint continuation then EOF", []byte{0x80}},
		{"two-byte varint cut", []byte{0xff, 0xff}},
		{"prefix only", full[:1]},
		{"prefix and part of body", full[:5]},
		{"all but the last byte", full[:len(full)-1]},
		{"whole frame then a cut one", append(append([]byte{}, full...), full[:3]...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for rname, r := range map[string]io.Reader{
				"plain":    bytes.NewReader(tc.in),
				"one byte": iotest.OneByteReader(bytes.NewReader(tc.in)),
				"data+EOF": iotest.DataErrReader(bytes.NewReader(tc.in)),
			} {
				fr := NewFrameReader(r)
				var m tankv1.ClientMessage
				var err error
				for range 3 { // read past any complete leading frame
					if err = fr.Read(&m); err != nil {
						break
					}
				}
				if !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Errorf("%s: Read error = %v, want io.ErrUnexpectedEOF (possibly wrapped)", rname, err)
				}
			}
		})
	}
}

func TestFrameReader_CleanEOF(t *testing.T) {
	err := NewFrameReader(bytes.NewReader(nil)).Read(&tankv1.ClientMessage{})
	if err != io.EOF {
		t.Fatalf("Read on an empty stream = %v, want io.EOF itself", err)
	}
}

func TestFrameReader_GarbageIsAnErrorNotAPanic(t *testing.T) {
	frame := func(body ...byte) []byte { return append(protowire.AppendVarint(nil, uint64(len(body))), body...) }
	for _, tc := range []struct {
		name string
		in   []byte
	}{
		{"wire type 7", frame(0xff)},
		{"field number 0", frame(0x00)},
		{"hello length beyond the frame", frame(0x0a, 0x05, 0x08)},
		{"invalid utf-8 in name", frame(0x0a, 0x04, 0x12, 0x02, 0xff, 0xfe)},
		{"fixed64 cut short", frame(0x12, 0x03, 0x11, 0x00, 0x00)},
		{"varint overflow in body", frame(0x12, 0x0b, 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)},
		{"11-byte length prefix", bytes.Repeat([]byte{0xff}, 11)},
		{"end group without start", frame(0x0c)},
		{"ascii text", []byte("GET / HTTP/1.1\r\n\r\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var m tankv1.ClientMessage
			err := NewFrameReader(bytes.NewReader(tc.in)).Read(&m)
			if err == nil {
				t.Fatalf("Read accepted garbage % x as %v", tc.in, &m)
			}
			if err == io.EOF || errors.Is(err, ErrFrameTooLarge) {
				t.Fatalf("Read error = %v, want a decode error", err)
			}
		})
	}
}

// netErr is a net.Error like the one a kcp-go session returns when its deadline passes.
type netErr struct{ timeout bool }

func (e *netErr) Error() string   { return "i/o timeout" }
func (e *netErr) Timeout() bool   { return e.timeout }
func (e *netErr) Temporary() bool { return e.timeout }

var _ net.Error = (*netErr)(nil)

// failingReader returns data, then err on every later call, like a connection whose read
// deadline has passed or that has been closed.
type failingReader struct {
	data []byte
	err  error
}

func (r *failingReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func TestFrameReader_UnderlyingErrorIsReturnedAsIs(t *testing.T) {
	full, err := AppendFrame(nil, cMove(7, -1, 0.5, 50))
	if err != nil {
		t.Fatal(err)
	}
	timeout := &netErr{timeout: true}
	for _, tc := range []struct {
		name string
		data []byte
		err  error
	}{
		{"timeout at a frame boundary", nil, timeout},
		{"timeout inside the length prefix", []byte{0x80}, timeout},
		{"timeout after the prefix", full[:1], timeout},
		{"timeout inside the body", full[:10], timeout},
		{"closed inside the body", full[:10], net.ErrClosed},
		{"closed pipe after the prefix", full[:1], io.ErrClosedPipe},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fr := NewFrameReader(&failingReader{data: tc.data, err: tc.err})
			got := fr.Read(&tankv1.ClientMessage{})
			if got != tc.err {
				t.Fatalf("Read error = %v (%T), want the reader's own %v", got, got, tc.err)
			}
			if tc.err == timeout && !IsTimeout(got) {
				t.Fatal("IsTimeout is false for a timeout")
			}
		})
	}
	// A complete frame before the failure is still delivered.
	fr := NewFrameReader(&failingReader{data: full, err: timeout})
	var m tankv1.ClientMessage
	if err := fr.Read(&m); err != nil || m.GetMoveInput().GetTick() != 7 {
		t.Fatalf("first Read = %v, %v; want the move input", err, &m)
	}
	if err := fr.Read(&m); err != timeout {
		t.Fatalf("second Read = %v, want the timeout", err)
	}
}
