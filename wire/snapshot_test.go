package wire

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
)

// TestPart_SameBytesAsProto: a snapshot assembled from entries is byte for byte what
// proto.Marshal writes for the same message, whole or as a chunk with left_view, and its
// stream form is what transport.AppendFrame writes.
func TestPart_SameBytesAsProto(t *testing.T) {
	states := []*tankv1.PlayerState{
		StateToProto(3, netcode.State{Tick: 900, Pose: netcode.Pose{X: 4, Y: 2.5, Heading: 1}, Ack: 880}),
		StateToProto(70000, netcode.State{Tick: 900, Pose: netcode.Pose{X: 150, Y: 90, Heading: -3}, Ack: 1}),
		{PlayerId: 9}, // a state with almost nothing set
	}
	var entries [][]byte
	var enc EntryEncoder
	for _, s := range states {
		e, err := enc.Append(nil, TankFromProto(s), s.GetTick())
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, e)
	}
	for _, tc := range []struct {
		name string
		part part
		snap *tankv1.Snapshot
	}{
		{"whole", part{h: Header{Tick: 900}, entries: entries}, &tankv1.Snapshot{ServerTick: 900, Players: states}},
		{"chunk with left_view", part{h: Header{Tick: 900, Left: []uint32{5, 300, 1}}, entries: entries[1:], index: 2, count: 3},
			&tankv1.Snapshot{ServerTick: 900, Players: states[1:], ChunkIndex: 2, ChunkCount: 3, LeftView: []uint32{5, 300, 1}}},
		{"delta chunk", part{h: Header{Tick: 900}, entries: entries[:1], count: 1, baseline: 880, unchanged: []uint32{5, 1 << 20}, moved: []int32{7, -1, 1 << 30, -1 << 31}},
			&tankv1.Snapshot{ServerTick: 900, Players: states[:1], ChunkCount: 1, BaselineTick: 880, Unchanged: []uint32{5, 1 << 20}, Moved: []int32{7, -1, 1 << 30, -1 << 31}}},
		{"empty", part{h: Header{Tick: 1}}, &tankv1.Snapshot{ServerTick: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Snapshot{Snapshot: tc.snap}}
			want, err := proto.Marshal(msg)
			if err != nil {
				t.Fatal(err)
			}
			if got := tc.part.appendMessage(nil); !bytes.Equal(got, want) || tc.part.messageSize() != len(want) {
				t.Errorf("assembled % x (size %d), proto.Marshal % x", got, tc.part.messageSize(), want)
			}
			if tc.part.index != 0 || tc.part.count != 0 || tc.part.baseline != 0 {
				return // the stream carries whole snapshots only
			}
			frame, err := transport.AppendFrame(nil, msg)
			if err != nil {
				t.Fatal(err)
			}
			if got := StreamFrame(tc.part.h, tc.part.entries); !bytes.Equal(got, frame) {
				t.Errorf("StreamFrame % x, transport.AppendFrame % x", got, frame)
			}
		})
	}
}

// goldenTanks is a canonical tick (900) of four tanks: every combat field set somewhere, ids
// from one byte to three, headings at both ends of their range.
func goldenTanks() []Tank {
	return []Tank{
		{ID: 3, Grid: netcode.GridPose{X: 1000, Y: 2000, Heading: -5}, Ack: 880, Combat: Combat{Health: 100}},
		{ID: 7, Grid: netcode.GridPose{X: 65536, Y: 1 << 20, Heading: 32768}, Ack: 12, Combat: Combat{Kills: 2, Deaths: 1, Destroyed: true}},
		{ID: 9, Grid: netcode.GridPose{X: 5, Y: 6, Heading: 7}, Ack: 1, Combat: Combat{Health: 40, SpawnProtected: true}},
		{ID: 70000, Grid: netcode.GridPose{X: 123456, Y: 654321, Heading: -32000}, Ack: 99999, Combat: Combat{Health: 100, Kills: 300, Deaths: 4}},
	}
}

// goldenCrowd is 300 tanks with ids 3 apart, spread over two and a half datagram loads.
func goldenCrowd() []Tank {
	var out []Tank
	for i := uint32(1); i <= 300; i++ {
		out = append(out, Tank{ID: i * 3, Grid: netcode.GridPose{X: i * 977, Y: i * 5011 % 100000, Heading: int32(i*37%65536) - 32768},
			Ack: i * 11, Combat: Combat{Health: 100 - i%100, Kills: i % 7, Deaths: i % 5, Destroyed: i%13 == 0, SpawnProtected: i%17 == 0}})
	}
	return out
}

func mustEntry(t *testing.T, tk Tank, tick uint32) []byte {
	t.Helper()
	var enc EntryEncoder
	e, err := enc.Append(nil, tk, tick)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func digest(chunks [][]byte) string {
	h := sha256.New()
	for _, c := range chunks {
		h.Write(c)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TestGolden_BytesOnTheWireDoNotChange pins the exact bytes of canonical snapshots (stream
// and chunked, whole and delta) and of an InputBatch, as the server and client wrote them
// before this package existed. Any change to the wire format shows up here first: if it is
// meant, it needs a protocol version and a new golden.
func TestGolden_BytesOnTheWireDoNotChange(t *testing.T) {
	tanks := goldenTanks()
	var entries [][]byte
	for _, tk := range tanks {
		entries = append(entries, mustEntry(t, tk, 900))
	}
	const stream = "741a720884071214080310840728f006506478e8078001d00f880109121b0807108407280c580160026801788080048001808040880180800412130809108407280150287001780580010688010e122008f0a204108407289f8d06506460ac02680478c0c4078001f1f7278801fff3034a0305ac02"
	if got := hex.EncodeToString(StreamFrame(Header{Tick: 900, Left: []uint32{5, 300}}, entries)); got != stream {
		t.Errorf("stream snapshot\n got %s\nwant %s", got, stream)
	}

	// Tick 900 against 895: tank 3 as it was, 7 moved, 9's health changed, 70000 is new.
	base := append([]Tank(nil), tanks[:3]...)
	base[1].Grid = netcode.GridPose{X: 65000, Y: 1<<20 + 300, Heading: 32760}
	base[2].Combat.Health = 50
	var b DeltaBuilder
	b.Reset(Header{Tick: 900, Left: []uint32{5}}, 895)
	for i, tk := range tanks {
		old, ok := Tank{}, i < len(base)
		if ok {
			old = base[i]
		}
		b.Add(entries[i], tk, old, ok)
	}
	chunks, err := b.Datagrams()
	if err != nil {
		t.Fatal(err)
	}
	const delta = "1a4d08840712130809108407280150287001780580010688010e122008f0a204108407289f8d06506460ac02680478c0c4078001f1f7278801fff30320014a010550ff065a010362060eb008d70410"
	if len(chunks) != 1 || hex.EncodeToString(chunks[0]) != delta {
		t.Errorf("delta chunk\n got %x\nwant [%s]", chunks, delta)
	}

	// 300 tanks whole: 8 chunks; then against a baseline, a third each whole, unchanged and
	// moved: 4 chunks.
	crowd := goldenCrowd()
	b.Reset(Header{Tick: 1234}, 0)
	for _, tk := range crowd {
		b.Add(mustEntry(t, tk, 1234), tk, Tank{}, false)
	}
	if chunks, err = b.Datagrams(); err != nil {
		t.Fatal(err)
	}
	const crowdWhole = "c459262479420245ee8f80f3c6e88eb354ba950d78c9144d8be56b5e524367ab"
	if got := digest(chunks); len(chunks) != 8 || got != crowdWhole {
		t.Errorf("crowd, whole: %d chunks, sha256 %s; want 8, %s", len(chunks), got, crowdWhole)
	}
	b.Reset(Header{Tick: 1235}, 1234)
	for i, tk := range crowd {
		old := tk
		switch i % 3 {
		case 0:
			b.Add(mustEntry(t, tk, 1235), tk, Tank{}, false)
			continue
		case 2:
			old.Grid = netcode.GridPose{X: tk.Grid.X - uint32(i), Y: tk.Grid.Y + 3, Heading: tk.Grid.Heading + int32(i%5) - 2}
		}
		b.Add(nil, tk, old, true)
	}
	if chunks, err = b.Datagrams(); err != nil {
		t.Fatal(err)
	}
	const crowdDelta = "6a8805d217c6c3fb7b7881468f6f4d0bf5049f51e19f1b005dc8f5041adf37e2"
	if got := digest(chunks); len(chunks) != 4 || got != crowdDelta {
		t.Errorf("crowd, delta: %d chunks, sha256 %s; want 4, %s", len(chunks), got, crowdDelta)
	}

	var enc BatchEncoder
	batch, err := enc.Encode([]netcode.PendingInput{
		{Tick: 100, Input: netcode.Input{Turn: 0.5, Throttle: -1}, Duration: netcode.StepInterval},
		{Tick: 101, Input: netcode.Input{Turn: -0.25, Throttle: 1}, Duration: 37 * time.Millisecond},
		{Tick: 70000, Input: netcode.Input{}, Duration: netcode.StepInterval},
	}, 77, 5)
	if err != nil {
		t.Fatal(err)
	}
	const inputBatch = "2a3f0a16086411000000000000e03f19000000000000f0bf20320a16086511000000000000d0bf19000000000000f03f20250a0608f0a2042032104d1d05000000"
	if got := hex.EncodeToString(batch); got != inputBatch {
		t.Errorf("InputBatch\n got %s\nwant %s", got, inputBatch)
	}
}
