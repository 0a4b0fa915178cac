package server

import (
	"bytes"
	"testing"

	"google.golang.org/protobuf/proto"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
)

// TestSnapPart_SameBytesAsProto: a snapshot assembled from encoded states is byte for byte
// what proto.Marshal writes for the same message, whole or as a chunk with left_view.
func TestSnapPart_SameBytesAsProto(t *testing.T) {
	states := []*tankv1.PlayerState{
		transport.StateToProto(3, netcode.State{Tick: 900, Pose: netcode.Pose{X: 4, Y: 2.5, Heading: 1}, Ack: 880}),
		transport.StateToProto(70000, netcode.State{Tick: 900, Pose: netcode.Pose{X: 150, Y: 90, Heading: -3}, Ack: 1}),
		{PlayerId: 9}, // a state with almost nothing set
	}
	var entries [][]byte
	for _, s := range states {
		e, err := encodeState(nil, s)
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, e)
	}
	for _, tc := range []struct {
		name string
		part snapPart
		snap *tankv1.Snapshot
	}{
		{"whole", snapPart{tick: 900, entries: entries}, &tankv1.Snapshot{ServerTick: 900, Players: states}},
		{"chunk with left_view", snapPart{tick: 900, entries: entries[1:], index: 2, count: 3, left: []uint32{5, 300, 1}},
			&tankv1.Snapshot{ServerTick: 900, Players: states[1:], ChunkIndex: 2, ChunkCount: 3, LeftView: []uint32{5, 300, 1}}},
		{"empty", snapPart{tick: 1}, &tankv1.Snapshot{ServerTick: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, err := proto.Marshal(&tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Snapshot{Snapshot: tc.snap}})
			if err != nil {
				t.Fatal(err)
			}
			if got := tc.part.appendMessage(nil); !bytes.Equal(got, want) || tc.part.messageSize() != len(want) {
				t.Errorf("assembled % x (size %d), proto.Marshal % x", got, tc.part.messageSize(), want)
			}
			frame, err := transport.AppendFrame(nil, &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Snapshot{Snapshot: tc.snap}})
			if err != nil {
				t.Fatal(err)
			}
			if got := tc.part.appendFrame(nil); !bytes.Equal(got, frame) {
				t.Errorf("frame % x, transport.AppendFrame % x", got, frame)
			}
		})
	}
}
