package wire

import (
	"bytes"
	"reflect"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
)

// TestFromClient_ReadsWhatAClientSends: every message a client's session builds reads back,
// through a real frame, as the Go value it was built from; an empty envelope reads as nothing
// and is named as such.
func TestFromClient_ReadsWhatAClientSends(t *testing.T) {
	step := netcode.PendingInput{Tick: 9, Input: netcode.Input{Turn: -0.5, Throttle: 1}, Duration: netcode.StepInterval}
	shot := netcode.ShotRequest{MoveTick: 9, LagCompensation: true,
		Views: []netcode.TankView{{ID: 2, View: netcode.View{From: 7, To: 8, Fraction: 0.25}}}}
	batch := InputBatch{Inputs: []netcode.PendingInput{step}, AckTick: 8, AckMask: 3}
	for name, tc := range map[string]struct {
		m    ClientMessage // nil: an empty envelope
		kind string
	}{
		"hello":       {Hello{ProtocolVersion: transport.ProtocolVersion, Name: "ada", Room: "blue"}, "*tankv1.ClientMessage_Hello"},
		"move":        {Move(step), "*tankv1.ClientMessage_MoveInput"},
		"input mode":  {InputMode{OnArrival: true}, "*tankv1.ClientMessage_InputMode"},
		"fire":        {Fire(shot), "*tankv1.ClientMessage_Fire"},
		"ping":        {Ping{ClientTimeUs: 1 << 50}, "*tankv1.ClientMessage_Ping"},
		"away":        {Away{LastMoveTick: 9}, "*tankv1.ClientMessage_Away"},
		"away, none":  {Away{}, "*tankv1.ClientMessage_Away"},
		"goodbye":     {Goodbye{Reason: "window closed"}, "*tankv1.ClientMessage_Goodbye"},
		"input batch": {batch, "*tankv1.ClientMessage_InputBatch"},
		"empty":       {nil, "an empty or unknown message"},
	} {
		t.Run(name, func(t *testing.T) {
			env := &tankv1.ClientMessage{}
			if tc.m != nil {
				env = ClientMessageToProto(tc.m)
			}
			frame, err := transport.AppendFrame(nil, env)
			if err != nil {
				t.Fatal(err)
			}
			var in FromClient
			if err := transport.NewFrameReader(bytes.NewReader(frame)).Read(in.Target()); err != nil {
				t.Fatal(err)
			}
			if got := in.Decode(); !reflect.DeepEqual(got, tc.m) {
				t.Errorf("Decode() = %#v, want %#v", got, tc.m)
			}
			if got := in.Kind(); got != tc.kind {
				t.Errorf("Kind() = %q, want %q", got, tc.kind)
			}
		})
	}
}

// TestBatchReader: an InputBatch datagram reads back with its acknowledgement and inputs, and
// a datagram that is not one is an error; the same bytes on the stream read as an InputBatch,
// for the server to refuse there.
func TestBatchReader(t *testing.T) {
	in := []netcode.PendingInput{
		{Tick: 10, Input: netcode.Input{Turn: 1}, Duration: 50 * time.Millisecond},
		{Tick: 11, Input: netcode.Input{Throttle: -1}, Duration: 50 * time.Millisecond},
	}
	var enc BatchEncoder
	b, err := enc.Encode(in, 77, 0xf0)
	if err != nil {
		t.Fatal(err)
	}
	var r BatchReader
	if err := r.Read(b); err != nil {
		t.Fatalf("Read: %v", err)
	}
	if got := r.AppendInputs(nil); r.AckTick() != 77 || r.Len() != 2 || !reflect.DeepEqual(got, in) {
		t.Errorf("read ack %d, %d inputs %v; want 77 and %v", r.AckTick(), r.Len(), got, in)
	}
	ping, err := proto.Marshal(ClientMessageToProto(Ping{ClientTimeUs: 1}))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Read(ping); err == nil {
		t.Error("Read accepted a Ping datagram")
	}
	// The same batch on the stream reads as an InputBatch, for the server to refuse there.
	var fc FromClient
	if err := proto.Unmarshal(b, fc.Target()); err != nil {
		t.Fatal(err)
	}
	if got, ok := fc.Decode().(InputBatch); !ok || got.AckTick != 77 || got.AckMask != 0xf0 || !reflect.DeepEqual(got.Inputs, in) {
		t.Errorf("FromClient.Decode() of a batch = %#v", fc.Decode())
	}
}
