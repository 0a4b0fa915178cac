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

func TestCheckChunk(t *testing.T) {
	ok := chunkMsg(10, 0, 1, 2).GetSnapshot()
	if err := CheckChunk(ok, 10); err != nil {
		t.Fatalf("a good chunk was refused: %v", err)
	}
	if err := CheckChunk(chunkMsg(10+MaxTickLead, 63, 64, 2).GetSnapshot(), 10); err != nil {
		t.Fatalf("a chunk at the limits was refused: %v", err)
	}
	wrongTick := chunkMsg(10, 0, 1, 2).GetSnapshot()
	wrongTick.Players[0].Tick = 9
	noID := chunkMsg(10, 0, 1, 2).GetSnapshot()
	noID.Players[0].PlayerId = 0
	for name, c := range map[string]*tankv1.Snapshot{
		"nil":            nil,
		"tick 0":         chunkMsg(0, 0, 1, 2).GetSnapshot(),
		"far future":     chunkMsg(10+MaxTickLead+1, 0, 1, 2).GetSnapshot(),
		"count 0":        chunkMsg(10, 0, 0, 2).GetSnapshot(),
		"index >= count": chunkMsg(10, 2, 2, 2).GetSnapshot(),
		"count > 64":     chunkMsg(10, 0, 65, 2).GetSnapshot(),
		"state of tick":  wrongTick,
		"player 0":       noID,
	} {
		if err := CheckChunk(c, 10); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestDecodeChunk_RefusesWhatIsNotAUsableChunk(t *testing.T) {
	good, err := transport.AppendDatagram(nil, chunkMsg(10, 0, 1, 2))
	if err != nil {
		t.Fatal(err)
	}
	pong, err := transport.AppendDatagram(nil, &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Pong{Pong: &tankv1.Pong{ClientTimeUs: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	var m tankv1.ServerMessage
	if err := DecodeChunk(good, &m, 10); err != nil || m.GetSnapshot().GetServerTick() != 10 {
		t.Fatalf("DecodeChunk(good) = %v, tick %d", err, m.GetSnapshot().GetServerTick())
	}
	for name, b := range map[string][]byte{
		"a Pong":          pong,
		"not protobuf":    {0xff},
		"truncated":       good[:len(good)-1],
		"over a datagram": make([]byte, transport.MaxDatagramSize+1),
	} {
		if err := DecodeChunk(b, &m, 10); err == nil {
			t.Errorf("%s: decoded as a chunk", name)
		}
	}
}
