package wire

import (
	"bytes"
	"testing"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"

	"google.golang.org/protobuf/proto"
)

// TestBatchEncoder_EncodesWhatItIsGivenWithoutAllocating: a batch goes out every prediction
// step, so after the first it reuses its message and buffer; what it encodes decodes back to
// the inputs and acknowledgement given, each time.
func TestBatchEncoder_EncodesWhatItIsGivenWithoutAllocating(t *testing.T) {
	var b BatchEncoder
	for _, n := range []int{3, 10, 1, 0, MaxBatchInputs} {
		var in []netcode.PendingInput
		for i := range n {
			in = append(in, netcode.PendingInput{Tick: uint32(100 + i), Input: netcode.Input{Turn: 0.5, Throttle: -1}, Duration: netcode.StepInterval})
		}
		d, err := b.Encode(in, 77, 5)
		if err != nil {
			t.Fatal(err)
		}
		var r BatchReader
		if err := r.Read(d); err != nil {
			t.Fatalf("%d inputs: %v", n, err)
		}
		if r.AckTick() != 77 || r.batch.GetSnapshotAckMask() != 5 || r.Len() != n {
			t.Fatalf("%d inputs: decoded %v", n, r.batch)
		}
		for i, p := range r.AppendInputs(nil) {
			if p != in[i] {
				t.Errorf("%d inputs: input %d decoded as %+v, want %+v", n, i, p, in[i])
			}
		}
	}
	in := make([]netcode.PendingInput, 10)
	if a := testing.AllocsPerRun(50, func() { b.Encode(in, 1, 0) }); a != 0 {
		t.Errorf("encoding a batch allocates %v times, want 0", a)
	}
	if _, err := b.Encode(make([]netcode.PendingInput, MaxBatchInputs+1), 1, 0); err == nil {
		t.Error("a batch over the limit encoded")
	}
}

// TestBatchReader_RefusesWhatIsNotABatch: a datagram that is another kind, an empty
// envelope, a batch over MaxBatchInputs or no protobuf at all is an error, and the reader
// then holds no batch (not the last good one).
func TestBatchReader_RefusesWhatIsNotABatch(t *testing.T) {
	tooMany := &tankv1.InputBatch{}
	for range MaxBatchInputs + 1 {
		tooMany.Inputs = append(tooMany.Inputs, &tankv1.MoveInput{Tick: 1, DurationMs: 50})
	}
	good, err := new(BatchEncoder).Encode([]netcode.PendingInput{{Tick: 9, Duration: netcode.StepInterval}}, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	good = append([]byte(nil), good...)
	bad := map[string][]byte{"truncated bytes": {0x2a, 0x05, 0x0a}}
	for name, msg := range map[string]*tankv1.ClientMessage{
		"a Ping":      {Kind: &tankv1.ClientMessage_Ping{Ping: &tankv1.Ping{ClientTimeUs: 1}}},
		"a MoveInput": {Kind: &tankv1.ClientMessage_MoveInput{MoveInput: &tankv1.MoveInput{Tick: 1}}},
		"nothing":     {},
		"over 20 ins": {Kind: &tankv1.ClientMessage_InputBatch{InputBatch: tooMany}},
	} {
		if bad[name], err = transport.AppendDatagram(nil, msg); err != nil {
			t.Fatal(err)
		}
	}
	var r BatchReader
	for name, b := range bad {
		if err := r.Read(good); err != nil {
			t.Fatal(err)
		}
		if err := r.Read(b); err == nil {
			t.Errorf("%s: decoded as %v", name, r.batch)
		}
		if r.Len() != 0 || r.AckTick() != 0 || len(r.AppendInputs(nil)) != 0 {
			t.Errorf("%s: after the error the reader still holds a batch of %d inputs, ack %d", name, r.Len(), r.AckTick())
		}
	}
}

// MoveEncoder's frames decode to the moves given, one after another in its one buffer.
func TestMoveEncoder_FramesEachMove(t *testing.T) {
	var e MoveEncoder
	for _, in := range []netcode.PendingInput{
		{Tick: 7, Input: netcode.Input{Throttle: 1, Turn: -0.5}, Duration: netcode.StepInterval},
		{Tick: 8, Input: netcode.Input{Throttle: -1}, Duration: netcode.StepInterval},
	} {
		frame, err := e.Encode(in)
		if err != nil {
			t.Fatal(err)
		}
		var m tankv1.ClientMessage
		if err := transport.NewFrameReader(bytes.NewReader(frame)).Read(&m); err != nil {
			t.Fatal(err)
		}
		if want := ClientMessageToProto(Move(in)); !proto.Equal(&m, want) {
			t.Errorf("frame decodes to %v, want the move %v", &m, want)
		}
	}
}
