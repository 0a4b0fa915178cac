package wire

import (
	"testing"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
)

// chunkMsg is chunk index of count of tick, holding players ids, each at x = tick.
func chunkMsg(tick, index, count uint32, ids ...uint32) *tankv1.ServerMessage {
	snap := &tankv1.Snapshot{ServerTick: tick, ChunkIndex: index, ChunkCount: count}
	for _, id := range ids {
		snap.Players = append(snap.Players, StateToProto(id, netcode.State{Tick: tick, Pose: netcode.Pose{X: float64(tick), Y: float64(id)}}))
	}
	return &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Snapshot{Snapshot: snap}}
}

// ReceiveChunk takes a chunk at every limit and refuses each rule broken, and bytes that are
// not a snapshot chunk at all.
func TestReceiveChunk_RefusesWhatIsNotAUsableChunk(t *testing.T) {
	datagram := func(m *tankv1.ServerMessage) []byte {
		t.Helper()
		b, err := transport.AppendDatagram(nil, m)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	good := datagram(chunkMsg(10, 0, 1, 2))
	if s, err := ReceiveChunk(good, 10); err != nil || s.Tick != 10 || len(s.Tanks) != 1 || s.Tanks[0].ID != 2 {
		t.Fatalf("a good chunk: %+v, %v", s, err)
	}
	if _, err := ReceiveChunk(datagram(chunkMsg(10+MaxTickLead, 63, 64, 2)), 10); err != nil {
		t.Fatalf("a chunk at the limits was refused: %v", err)
	}
	wrongTick := chunkMsg(10, 0, 1, 2)
	wrongTick.GetSnapshot().Players[0].Tick = 9
	noID := chunkMsg(10, 0, 1, 2)
	noID.GetSnapshot().Players[0].PlayerId = 0
	for name, b := range map[string][]byte{
		"a Pong":          datagram(&tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Pong{Pong: &tankv1.Pong{ClientTimeUs: 1}}}),
		"not protobuf":    {0xff},
		"truncated":       good[:len(good)-1],
		"over a datagram": make([]byte, transport.MaxDatagramSize+1),
		"tick 0":          datagram(chunkMsg(0, 0, 1, 2)),
		"far future":      datagram(chunkMsg(10+MaxTickLead+1, 0, 1, 2)),
		"count 0":         datagram(chunkMsg(10, 0, 0, 2)),
		"index >= count":  datagram(chunkMsg(10, 2, 2, 2)),
		"count > 64":      datagram(chunkMsg(10, 0, 65, 2)),
		"state of tick":   datagram(wrongTick),
		"player 0":        datagram(noID),
	} {
		if s, err := ReceiveChunk(b, 10); err == nil {
			t.Errorf("%s: accepted as %+v", name, s)
		}
	}
}
