package wire

import (
	"math"
	"testing"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
)

// Fuzz targets for what a receiver decodes from the network: a client's snapshot chunks
// (with the delta part rebuilt against a baseline) and the server's InputBatch datagrams.

// chunkDatagram is snap as the datagram a server sends.
func chunkDatagram(f testing.TB, snap *tankv1.Snapshot) []byte {
	b, err := transport.AppendDatagram(nil, &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Snapshot{Snapshot: snap}})
	if err != nil {
		f.Fatal(err)
	}
	return b
}

// FuzzChunk hands arbitrary bytes to ReceiveChunk (newest tick seen: 10) and what it accepts
// to Baselines.Tanks with tanks 1 to 6 recorded at tick 10. Nothing may panic; an accepted
// chunk obeys every rule ReceiveChunk checks; every tank used is of the chunk's tick, a whole state
// or one of the baseline's tanks, at a finite pose; a chunk without delta part is always
// usable whole.
func FuzzChunk(f *testing.F) {
	whole := chunkMsg(11, 0, 1, 1, 2, 3).GetSnapshot()
	seeds := []*tankv1.Snapshot{
		whole, // an ordinary chunk of whole states
		{ServerTick: 11, ChunkIndex: 1, ChunkCount: 2, LeftView: []uint32{4, 9}},                                          // a second chunk listing departures
		{ServerTick: 11, ChunkCount: 1, BaselineTick: 10, Unchanged: []uint32{2, 1}, Moved: []int32{4, 100, -100, 5}},     // a delta against the baseline
		{ServerTick: 12, ChunkCount: 1, BaselineTick: 10, Moved: []int32{3, -1 << 31, 1<<31 - 1, 1 << 20}},                // offsets off the grid
		{ServerTick: 11, ChunkCount: 1, BaselineTick: 9, Unchanged: []uint32{1}},                                          // a baseline never received
		{ServerTick: 11, ChunkCount: 1, BaselineTick: 10, Unchanged: []uint32{1, 1 << 31, 1 << 31}, Moved: []int32{1, 2}}, // gaps that wrap, moved not in fours
		{ServerTick: 10 + MaxTickLead, ChunkIndex: 63, ChunkCount: 64},                                                    // at every limit
		{ServerTick: 11, ChunkIndex: 2, ChunkCount: 2},                                                                    // index past the count
	}
	for _, s := range seeds {
		f.Add(chunkDatagram(f, s))
	}
	f.Add([]byte{0x1a, 0x00}) // an empty Snapshot
	f.Add([]byte{0xff})       // not protobuf
	base := map[uint32]Tank{}
	for id := uint32(1); id <= 6; id++ {
		base[id] = TankOf(id, netcode.State{Tick: 10, Pose: netcode.Pose{X: float64(id), Y: 2}, Ack: 3}, Combat{Health: 100})
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		snap, err := ReceiveChunk(b, 10)
		if err != nil {
			return
		}
		tick, n := snap.Tick, snap.Count
		if tick == 0 || tick > 10+MaxTickLead || n == 0 || n > MaxSnapshotChunks || snap.Index >= n {
			t.Fatalf("accepted chunk %d of %d of tick %d", snap.Index, n, tick)
		}
		var bases Baselines
		for _, tk := range base {
			bases.Record(10, tk)
		}
		wholeIDs := map[uint32]bool{}
		for _, tk := range snap.Tanks {
			wholeIDs[tk.ID] = true
		}
		ok := bases.Tanks(snap, func(tk Tank) {
			id := tk.ID
			if id == 0 {
				t.Fatalf("tank 0 used from a chunk of tick %d", tick)
			}
			if _, known := base[id]; !known && !wholeIDs[id] {
				t.Fatalf("tank %d rebuilt without a baseline", id)
			}
			if p := tk.State(tick).Pose; math.IsNaN(p.X+p.Y+p.Heading) || math.IsInf(p.X+p.Y+p.Heading, 0) {
				t.Fatalf("tank %d at %v", id, p)
			}
		})
		if !ok && snap.Baseline == 0 && len(snap.Unchanged) == 0 && len(snap.Moved) == 0 {
			t.Fatal("a chunk of whole states only was not usable")
		}
	})
}

// FuzzInputBatch hands arbitrary bytes to BatchReader.Read, as the server's datagram handler
// does. Nothing may panic; an accepted batch holds at most MaxBatchInputs inputs, and
// encoding its inputs and acknowledgement again decodes to the very same values.
func FuzzInputBatch(f *testing.F) {
	var enc BatchEncoder
	add := func(in []netcode.PendingInput, ackTick, ackMask uint32) {
		b, err := enc.Encode(in, ackTick, ackMask)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(append([]byte(nil), b...))
	}
	step := func(tick uint32) netcode.PendingInput {
		return netcode.PendingInput{Tick: tick, Input: netcode.Input{Turn: 0.5, Throttle: 1}, Duration: netcode.StepInterval}
	}
	add([]netcode.PendingInput{step(100), step(101), step(102)}, 77, 5)                               // an ordinary batch
	add(nil, 1, 0)                                                                                    // an acknowledgement only
	add([]netcode.PendingInput{{Tick: math.MaxUint32, Input: netcode.Input{Turn: math.NaN()}}}, 0, 0) // a NaN turn, duration 0
	f.Add([]byte{0x2a, 0x00})                                                                         // an empty InputBatch
	f.Add([]byte{0x0a, 0x00})                                                                         // a Hello, not a batch
	f.Add([]byte{0x2a, 0x05, 0x0a})                                                                   // truncated
	f.Fuzz(func(t *testing.T, b []byte) {
		var r BatchReader
		if err := r.Read(b); err != nil {
			return
		}
		in := r.AppendInputs(nil)
		if len(in) > MaxBatchInputs {
			t.Fatalf("accepted a batch of %d inputs", len(in))
		}
		var again BatchEncoder
		b2, err := again.Encode(in, r.AckTick(), r.batch.GetSnapshotAckMask())
		if err != nil {
			t.Fatalf("re-encoding an accepted batch: %v", err)
		}
		var r2 BatchReader
		if err := r2.Read(b2); err != nil {
			t.Fatalf("decoding a re-encoded batch: %v", err)
		}
		in2 := r2.AppendInputs(nil)
		if len(in2) != len(in) || r2.AckTick() != r.AckTick() || r2.batch.GetSnapshotAckMask() != r.batch.GetSnapshotAckMask() {
			t.Fatalf("batch %v came back as %v", r.batch, r2.batch)
		}
		for i := range in {
			if in2[i].Tick != in[i].Tick || in2[i].Duration != in[i].Duration ||
				math.Float64bits(in2[i].Input.Turn) != math.Float64bits(in[i].Input.Turn) ||
				math.Float64bits(in2[i].Input.Throttle) != math.Float64bits(in[i].Input.Throttle) {
				t.Fatalf("input %d: %+v came back as %+v", i, in[i], in2[i])
			}
		}
	})
}
