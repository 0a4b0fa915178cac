package wire

import (
	"fmt"
	"testing"

	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
)

// serverChunks returns the chunk datagrams a server builds for n tanks at tick 1000: whole
// when delta is false, else against tick 999 (a third unchanged, a third moved, a third
// whole), each tank's Ack its id times 3.
func serverChunks(t testing.TB, n int, delta bool) [][]byte {
	t.Helper()
	now, base := benchTanks(n)
	for i := range now {
		now[i].Ack = now[i].ID * 3
		if i%3 == 0 {
			base[i] = now[i]
		}
	}
	var enc EntryEncoder
	var d DeltaBuilder
	baseline := uint32(0)
	if delta {
		baseline = 999
	}
	d.Reset(Header{Tick: 1000, Left: []uint32{5000, 5001}}, baseline)
	for i, tk := range now {
		e, err := enc.Append(nil, tk, 1000)
		if err != nil {
			t.Fatal(err)
		}
		d.Add(e, tk, base[i], true)
	}
	out, err := d.Datagrams()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// scanAgrees fails t unless ScanChunk(b, newest, self) reads what ReceiveChunk decodes, when
// ReceiveChunk accepts b; it reports whether it did.
func scanAgrees(t *testing.T, b []byte, newest, self uint32) bool {
	t.Helper()
	snap, err := ReceiveChunk(b, newest)
	h, scanErr := ScanChunk(b, newest, self)
	if err != nil {
		return false
	}
	if scanErr != nil {
		t.Fatalf("ScanChunk(%x, %d, %d) = %v, but ReceiveChunk accepts it", b, newest, self, scanErr)
	}
	want := ChunkHead{Tick: snap.Tick, Index: snap.Index, Count: snap.Count, Baseline: snap.Baseline,
		Unchanged: len(snap.Unchanged), Moved: len(snap.Moved)}
	for _, tk := range snap.Tanks {
		if tk.ID == self {
			want.Own, want.OwnAck = true, tk.Ack
		}
	}
	if h != want {
		t.Fatalf("ScanChunk(%x, %d, %d) = %+v, ReceiveChunk says %+v", b, newest, self, h, want)
	}
	return true
}

// TestScanChunk_AgreesWithReceiveChunk: on the chunks a server builds, whole and delta, of
// one datagram and of several, ScanChunk reads every header and delta count ReceiveChunk
// decodes, and every player's own acknowledged move tick (none for a tank sent as a delta).
func TestScanChunk_AgreesWithReceiveChunk(t *testing.T) {
	for _, n := range []int{1, 32, 256} {
		for _, delta := range []bool{false, true} {
			t.Run(fmt.Sprintf("tanks=%d/delta=%v", n, delta), func(t *testing.T) {
				chunks := serverChunks(t, n, delta)
				if n == 256 && len(chunks) < 2 {
					t.Fatalf("256 tanks fit %d chunk; the test wants several", len(chunks))
				}
				owns := 0
				for _, b := range chunks {
					for self := uint32(0); self <= uint32(n)+1; self++ {
						if !scanAgrees(t, b, 999, self) {
							t.Fatalf("ReceiveChunk refused a server's chunk %x", b)
						}
						if h, _ := ScanChunk(b, 999, self); h.Own {
							owns++
						}
					}
				}
				if want := n; !delta && owns != want {
					t.Errorf("%d players found their state whole, want %d", owns, want)
				}
			})
		}
	}
}

// TestScanChunk_RefusesLikeReceiveChunk: the chunks ReceiveChunk refuses for a rule (not
// for malformed bytes) ScanChunk refuses too.
func TestScanChunk_RefusesLikeReceiveChunk(t *testing.T) {
	ps := func(id, tick uint32) *tankv1.PlayerState { return &tankv1.PlayerState{PlayerId: id, Tick: tick} }
	cases := map[string]*tankv1.ServerMessage{
		"tick 0":          {Kind: &tankv1.ServerMessage_Snapshot{Snapshot: &tankv1.Snapshot{ChunkCount: 1}}},
		"too far ahead":   {Kind: &tankv1.ServerMessage_Snapshot{Snapshot: &tankv1.Snapshot{ServerTick: 10 + MaxTickLead + 1, ChunkCount: 1}}},
		"count 0":         {Kind: &tankv1.ServerMessage_Snapshot{Snapshot: &tankv1.Snapshot{ServerTick: 11}}},
		"count too large": {Kind: &tankv1.ServerMessage_Snapshot{Snapshot: &tankv1.Snapshot{ServerTick: 11, ChunkCount: MaxSnapshotChunks + 1}}},
		"index past":      {Kind: &tankv1.ServerMessage_Snapshot{Snapshot: &tankv1.Snapshot{ServerTick: 11, ChunkIndex: 1, ChunkCount: 1}}},
		"state tick":      {Kind: &tankv1.ServerMessage_Snapshot{Snapshot: &tankv1.Snapshot{ServerTick: 11, ChunkCount: 1, Players: []*tankv1.PlayerState{ps(1, 11), ps(2, 10)}}}},
		"player 0":        {Kind: &tankv1.ServerMessage_Snapshot{Snapshot: &tankv1.Snapshot{ServerTick: 11, ChunkCount: 1, Players: []*tankv1.PlayerState{ps(0, 11)}}}},
		"a pong":          {Kind: &tankv1.ServerMessage_Pong{Pong: &tankv1.Pong{ClientTimeUs: 5}}},
	}
	for name, m := range cases {
		t.Run(name, func(t *testing.T) {
			b := chunkDatagram(t, m.GetSnapshot())
			if m.GetSnapshot() == nil {
				b = messageBytes(t, m)
			}
			if _, err := ReceiveChunk(b, 10); err == nil {
				t.Fatal("ReceiveChunk accepts it; the case is wrong")
			}
			if h, err := ScanChunk(b, 10, 1); err == nil {
				t.Errorf("ScanChunk = %+v, want an error", h)
			}
		})
	}
}

// TestScanChunk_AllocatesNothing: ScanChunk allocates nothing for a chunk of 32 tanks.
func TestScanChunk_AllocatesNothing(t *testing.T) {
	b := serverChunks(t, 32, true)[0]
	if n := testing.AllocsPerRun(100, func() { ScanChunk(b, 999, 7) }); n != 0 {
		t.Errorf("ScanChunk allocates %v times, want 0", n)
	}
}

// FuzzScanChunk: on any bytes ScanChunk never panics, and whatever ReceiveChunk accepts it
// accepts and reads alike (seeds: a server's whole and delta chunks, and FuzzChunk's).
func FuzzScanChunk(f *testing.F) {
	for _, delta := range []bool{false, true} {
		for _, b := range serverChunks(f, 40, delta) {
			f.Add(b, uint32(7))
		}
	}
	f.Add(chunkDatagram(f, &tankv1.Snapshot{ServerTick: 11, ChunkCount: 1, BaselineTick: 10, Unchanged: []uint32{2, 1}, Moved: []int32{4, 100, -100, 5}}), uint32(2))
	f.Add([]byte{0x1a, 0x00}, uint32(1)) // an empty Snapshot
	f.Add([]byte{0xff}, uint32(1))       // not protobuf
	f.Fuzz(func(t *testing.T, b []byte, self uint32) {
		scanAgrees(t, b, 999, self)
	})
}

// messageBytes is m's datagram encoding.
func messageBytes(t testing.TB, m *tankv1.ServerMessage) []byte {
	t.Helper()
	b, err := transport.AppendDatagram(nil, m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
