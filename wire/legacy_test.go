package wire

import (
	"bytes"
	"testing"

	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
)

// TestOldClientReject: a protocol 1 client's opening Hello draws a framed version-mismatch
// Reject naming both versions; a current Hello, another message, a torn frame and noise
// draw nothing.
func TestOldClientReject(t *testing.T) {
	frame := func(m *tankv1.ClientMessage) []byte {
		b, err := transport.AppendFrame(nil, m)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	hello := func(v uint32) []byte {
		return frame(&tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Hello{Hello: &tankv1.Hello{ProtocolVersion: v, Name: "ada"}}})
	}

	reply := OldClientReject(hello(1))
	if reply == nil {
		t.Fatal("OldClientReject(Hello v1) = nil, want a Reject")
	}
	var m tankv1.ServerMessage
	if err := transport.NewFrameReader(bytes.NewReader(reply)).Read(&m); err != nil {
		t.Fatalf("reply does not read back as a frame: %v", err)
	}
	if rej := m.GetReject(); rej.GetCode() != tankv1.RejectCode_REJECT_CODE_VERSION_MISMATCH ||
		rej.GetReason() != "protocol version 1 not supported (want 2)" {
		t.Errorf("OldClientReject(Hello v1) = %v, want a version mismatch naming 1 and 2", &m)
	}

	ping := frame(&tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Ping{Ping: &tankv1.Ping{ClientTimeUs: 1}}})
	for name, payload := range map[string][]byte{
		"current hello": hello(transport.ProtocolVersion),
		"ping":          ping,
		"torn":          hello(1)[:5],
		"noise":         {0xff, 0xff, 0xff, 0xff, 0x0f, 1, 2},
		"empty":         nil,
	} {
		if got := OldClientReject(payload); got != nil {
			t.Errorf("OldClientReject(%s) = %x, want nil", name, got)
		}
	}
}
