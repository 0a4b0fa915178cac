package wire

import (
	"errors"
	"fmt"
	"time"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
)

// A client's inputs: each prediction step goes on the stream as one MoveInput, the
// guarantee, and on the datagram lane the unacknowledged ones (the 4 oldest and 10 newest
// when there are more than 14) are repeated in one InputBatch datagram a frame, with the
// client's snapshot acknowledgement. Inputs arrive unvalidated:
// the server checks finiteness, ranges, duration and tick itself (world/admit.go), since
// what to do with a bad one depends on which lane brought it.

// FillMove sets m to the wire form of p, reusing m. A duration travels in whole
// milliseconds (truncated; a negative one as 0).
func FillMove(m *tankv1.MoveInput, p netcode.PendingInput) {
	m.Tick, m.Turn, m.Throttle = p.Tick, p.Input.Turn, p.Input.Throttle
	m.DurationMs = uint32(max(0, p.Duration/time.Millisecond))
	m.PushX, m.PushY = p.Push.X, p.Push.Y
}

// MoveFromProto returns the netcode view of a wire input, unvalidated. A nil m reads as the
// zero input.
func MoveFromProto(m *tankv1.MoveInput) netcode.PendingInput {
	return netcode.PendingInput{
		Tick:     m.GetTick(),
		Input:    netcode.Input{Turn: m.GetTurn(), Throttle: m.GetThrottle()},
		Duration: time.Duration(m.GetDurationMs()) * time.Millisecond,
		Push:     netcode.Push{X: m.GetPushX(), Y: m.GetPushY()},
	}
}

// BatchEncoder encodes InputBatch datagrams into one message and buffer it keeps, since one
// goes out every frame that runs prediction steps: after the first, encoding allocates
// nothing. Its zero
// value is ready; it is not safe for concurrent use.
type BatchEncoder struct {
	moves [MaxBatchInputs]tankv1.MoveInput
	ptrs  [MaxBatchInputs]*tankv1.MoveInput
	batch tankv1.InputBatch
	msg   tankv1.ClientMessage
	buf   []byte
}

// Encode returns the datagram repeating inputs (oldest first, at most MaxBatchInputs) with
// the snapshot acknowledgement ackTick/ackMask, valid until the next call.
func (b *BatchEncoder) Encode(inputs []netcode.PendingInput, ackTick, ackMask uint32) ([]byte, error) {
	if len(inputs) > MaxBatchInputs {
		return nil, fmt.Errorf("wire: %d inputs in one batch, more than %d", len(inputs), MaxBatchInputs)
	}
	if b.msg.Kind == nil {
		for i := range b.ptrs {
			b.ptrs[i] = &b.moves[i]
		}
		b.msg.Kind = &tankv1.ClientMessage_InputBatch{InputBatch: &b.batch}
	}
	for i, in := range inputs {
		FillMove(b.ptrs[i], in)
	}
	b.batch.Inputs, b.batch.SnapshotAckTick, b.batch.SnapshotAckMask = b.ptrs[:len(inputs)], ackTick, ackMask
	var err error
	b.buf, err = transport.AppendDatagram(b.buf[:0], &b.msg)
	return b.buf, err
}

// MoveEncoder frames MoveInputs for the stream into one reused message and buffer: a load
// client sending thousands a second allocates nothing for them.
type MoveEncoder struct {
	move tankv1.MoveInput
	msg  tankv1.ClientMessage
	buf  []byte
}

// Encode returns in's MoveInput as a stream frame (transport.AppendFrame), valid until the
// next call.
func (e *MoveEncoder) Encode(in netcode.PendingInput) ([]byte, error) {
	if e.msg.Kind == nil {
		e.msg.Kind = &tankv1.ClientMessage_MoveInput{MoveInput: &e.move}
	}
	FillMove(&e.move, in)
	var err error
	e.buf, err = transport.AppendFrame(e.buf[:0], &e.msg)
	return e.buf, err
}

var (
	errNotInputBatch = errors.New("wire: datagram is not an InputBatch")
	errBatchTooLarge = fmt.Errorf("wire: InputBatch of more than %d inputs", MaxBatchInputs)
)

// BatchReader reads InputBatch datagrams, as a server does with every datagram a client
// sends. Its zero value is ready; it is not safe for concurrent use.
type BatchReader struct {
	m     tankv1.ClientMessage
	batch *tankv1.InputBatch // nil until a Read succeeds
}

// Read decodes datagram b. Bytes that are not a ClientMessage holding an InputBatch of at
// most MaxBatchInputs inputs yield an error, and the reader then holds no batch. The inputs
// themselves are not validated (see MoveFromProto). It never panics, whatever b holds.
func (r *BatchReader) Read(b []byte) error {
	r.batch = nil
	if err := transport.DecodeDatagram(b, &r.m); err != nil {
		return err
	}
	batch := r.m.GetInputBatch()
	switch {
	case batch == nil:
		return errNotInputBatch
	case len(batch.GetInputs()) > MaxBatchInputs:
		return errBatchTooLarge
	}
	r.batch = batch
	return nil
}

// AckTick is the newest snapshot tick the batch acknowledges.
func (r *BatchReader) AckTick() uint32 { return r.batch.GetSnapshotAckTick() }

// Len is how many inputs the batch repeats.
func (r *BatchReader) Len() int { return len(r.batch.GetInputs()) }

// AppendInputs appends the batch's inputs, oldest first and unvalidated, to dst and returns
// it.
func (r *BatchReader) AppendInputs(dst []netcode.PendingInput) []netcode.PendingInput {
	return appendInputs(dst, r.batch)
}

// appendInputs appends the netcode view of batch's inputs, oldest first, to dst and returns
// it: for BatchReader, and for FromClient.Decode when a batch comes on the stream.
func appendInputs(dst []netcode.PendingInput, batch *tankv1.InputBatch) []netcode.PendingInput {
	for _, in := range batch.GetInputs() {
		dst = append(dst, MoveFromProto(in))
	}
	return dst
}
