package wire

import (
	"testing"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
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
		var m tankv1.ClientMessage
		got, err := DecodeInputBatch(d, &m)
		if err != nil {
			t.Fatalf("%d inputs: %v", n, err)
		}
		if got.GetSnapshotAckTick() != 77 || got.GetSnapshotAckMask() != 5 || len(got.GetInputs()) != n {
			t.Fatalf("%d inputs: decoded %v", n, got)
		}
		for i, p := range AppendInputs(nil, got) {
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

func TestDecodeInputBatch_RefusesWhatIsNotABatch(t *testing.T) {
	tooMany := &tankv1.InputBatch{}
	for range MaxBatchInputs + 1 {
		tooMany.Inputs = append(tooMany.Inputs, &tankv1.MoveInput{Tick: 1, DurationMs: 50})
	}
	var m tankv1.ClientMessage
	for name, msg := range map[string]*tankv1.ClientMessage{
		"a Ping":      {Kind: &tankv1.ClientMessage_Ping{Ping: &tankv1.Ping{ClientTimeUs: 1}}},
		"a MoveInput": {Kind: &tankv1.ClientMessage_MoveInput{MoveInput: &tankv1.MoveInput{Tick: 1}}},
		"nothing":     {},
		"over 20 ins": {Kind: &tankv1.ClientMessage_InputBatch{InputBatch: tooMany}},
	} {
		b, err := transport.AppendDatagram(nil, msg)
		if err != nil {
			t.Fatal(err)
		}
		if batch, err := DecodeInputBatch(b, &m); err == nil {
			t.Errorf("%s: decoded as %v", name, batch)
		}
	}
	if _, err := DecodeInputBatch([]byte{0x2a, 0x05, 0x0a}, &m); err == nil {
		t.Error("truncated bytes decoded")
	}
}
