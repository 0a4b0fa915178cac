package wire

import (
	"testing"

	"google.golang.org/protobuf/proto"

	tankv1 "tanknet/proto/tank/v1"
)

// Each DisconnectCode is the protocol's value of the same name, and the protocol has no
// value without a DisconnectCode.
func TestDisconnectCode_MatchesTheProtocol(t *testing.T) {
	for c, want := range map[DisconnectCode]string{DisconnectUnspecified: "unspecified", DisconnectTimeout: "timeout",
		DisconnectProtocolError: "protocol_error", DisconnectCannotKeepUp: "cannot_keep_up",
		DisconnectNotAcknowledging: "not_acknowledging", DisconnectShuttingDown: "shutting_down"} {
		if got := c.String(); got != want {
			t.Errorf("DisconnectCode(%d) is %q, want %q (PROTOCOL.md, the metrics' labels)", int32(c), got, want)
		}
	}
	if len(tankv1.DisconnectCode_name) != 6 {
		t.Errorf("the protocol has %d Disconnect codes; this test and wire know 6", len(tankv1.DisconnectCode_name))
	}
	if got := DisconnectCode(77).String(); got != "code 77" {
		t.Errorf("an unknown code reads %q, want \"code 77\"", got)
	}
}

// A Disconnect survives the bytes: encoded by the server, decoded by a client, with its code
// and reason. A Disconnect of an older server (no code) or with a code this build does not
// know decodes as DisconnectUnspecified with its reason intact.
func TestDisconnect_RoundTrip(t *testing.T) {
	decode := func(b []byte) Disconnect {
		t.Helper()
		var m tankv1.ServerMessage
		if err := proto.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if m.GetDisconnect() == nil {
			t.Fatalf("decoded %v, want a Disconnect", &m)
		}
		return DisconnectFromProto(m.GetDisconnect())
	}
	for v := range tankv1.DisconnectCode_name {
		want := Disconnect{Code: DisconnectCode(v), Reason: "because " + DisconnectCode(v).String()}
		b, err := proto.Marshal(ServerMessageToProto(want))
		if err != nil {
			t.Fatal(err)
		}
		if got := decode(b); got != want {
			t.Errorf("round trip of %+v gave %+v", want, got)
		}
	}
	old, err := proto.Marshal(&tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Disconnect{Disconnect: &tankv1.Disconnect{Reason: "timed out: nothing received for 5s"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := decode(old); got != (Disconnect{Code: DisconnectUnspecified, Reason: "timed out: nothing received for 5s"}) {
		t.Errorf("a Disconnect without a code decodes to %+v", got)
	}
	newer, err := proto.Marshal(&tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Disconnect{Disconnect: &tankv1.Disconnect{Code: 77, Reason: "a reason from the future"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := decode(newer); got != (Disconnect{Code: DisconnectUnspecified, Reason: "a reason from the future"}) {
		t.Errorf("a Disconnect with an unknown code decodes to %+v", got)
	}
}

// The code travels as field 2, a varint after the reason: what an older client skips.
func TestDisconnect_Bytes(t *testing.T) {
	b, err := proto.Marshal(ServerMessageToProto(Disconnect{Code: DisconnectCannotKeepUp, Reason: "x"}).GetDisconnect())
	if err != nil {
		t.Fatal(err)
	}
	if want := []byte{0x0a, 0x01, 'x', 0x10, 0x03}; string(b) != string(want) {
		t.Errorf("Disconnect{cannot keep up, \"x\"} is % x, want % x", b, want)
	}
}
