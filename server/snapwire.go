package server

import (
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	tankv1 "tanknet/proto/tank/v1"
)

// Snapshots are assembled by hand from each tank's PlayerState, encoded once per tick: with
// interest management every client gets its own selection, and copying ready bytes costs a
// fraction of marshalling the same states again per client. The bytes are exactly what
// proto.Marshal writes for the same Snapshot (fields in number order), so clients decode
// them with the generated code like any other message.

// Field numbers of the messages assembled here (tank.proto).
const (
	fieldServerMessageSnapshot protowire.Number = 3
	fieldSnapshotServerTick    protowire.Number = 1
	fieldSnapshotPlayers       protowire.Number = 2
	fieldSnapshotChunkIndex    protowire.Number = 3
	fieldSnapshotChunkCount    protowire.Number = 4
	fieldSnapshotLeftView      protowire.Number = 9
	fieldSnapshotBaselineTick  protowire.Number = 10
	fieldSnapshotUnchanged     protowire.Number = 11
	fieldSnapshotMoved         protowire.Number = 12
)

// snapPart is one snapshot's worth of content: a server tick, the encoded PlayerStates
// (without their field tag and length) in player_id order, and the ids that left the view.
type snapPart struct {
	tick         uint32
	entries      [][]byte
	index, count uint32 // chunk index and count; 0, 0 for a whole snapshot
	left         []uint32
	baseline     uint32   // delta encoding: the baseline tick, 0 for none
	unchanged    []uint32 // id gaps of tanks unchanged since the baseline
	moved        []int32  // id gap, dx, dy, dheading of tanks that moved since it
}

// entrySize is what one encoded PlayerState costs inside a Snapshot.
func entrySize(e []byte) int {
	return protowire.SizeTag(fieldSnapshotPlayers) + protowire.SizeBytes(len(e))
}

// leftSize is what a left_view field of ids costs (0 for none).
func leftSize(ids []uint32) int {
	if len(ids) == 0 {
		return 0
	}
	n := 0
	for _, id := range ids {
		n += protowire.SizeVarint(uint64(id))
	}
	return protowire.SizeTag(fieldSnapshotLeftView) + protowire.SizeBytes(n)
}

func (s *snapPart) bodySize() int {
	n := protowire.SizeTag(fieldSnapshotServerTick) + protowire.SizeVarint(uint64(s.tick))
	if s.tick == 0 {
		n = 0
	}
	for _, e := range s.entries {
		n += entrySize(e)
	}
	if s.index != 0 {
		n += protowire.SizeTag(fieldSnapshotChunkIndex) + protowire.SizeVarint(uint64(s.index))
	}
	if s.count != 0 {
		n += protowire.SizeTag(fieldSnapshotChunkCount) + protowire.SizeVarint(uint64(s.count))
	}
	n += leftSize(s.left)
	if s.baseline != 0 {
		n += protowire.SizeTag(fieldSnapshotBaselineTick) + protowire.SizeVarint(uint64(s.baseline))
	}
	return n + packedSize(varintsSize(s.unchanged)) + packedSize(zigzagsSize(s.moved))
}

func varintsSize(vs []uint32) int {
	n := 0
	for _, v := range vs {
		n += protowire.SizeVarint(uint64(v))
	}
	return n
}

func zigzagsSize(vs []int32) int {
	n := 0
	for _, v := range vs {
		n += protowire.SizeVarint(zigzag(v))
	}
	return n
}

// messageSize is the encoded size of the ServerMessage carrying s.
func (s *snapPart) messageSize() int {
	return protowire.SizeTag(fieldServerMessageSnapshot) + protowire.SizeBytes(s.bodySize())
}

// appendMessage appends the ServerMessage{snapshot: s} encoding to dst.
func (s *snapPart) appendMessage(dst []byte) []byte {
	dst = protowire.AppendTag(dst, fieldServerMessageSnapshot, protowire.BytesType)
	dst = protowire.AppendVarint(dst, uint64(s.bodySize()))
	if s.tick != 0 {
		dst = protowire.AppendTag(dst, fieldSnapshotServerTick, protowire.VarintType)
		dst = protowire.AppendVarint(dst, uint64(s.tick))
	}
	for _, e := range s.entries {
		dst = protowire.AppendTag(dst, fieldSnapshotPlayers, protowire.BytesType)
		dst = protowire.AppendBytes(dst, e)
	}
	if s.index != 0 {
		dst = protowire.AppendTag(dst, fieldSnapshotChunkIndex, protowire.VarintType)
		dst = protowire.AppendVarint(dst, uint64(s.index))
	}
	if s.count != 0 {
		dst = protowire.AppendTag(dst, fieldSnapshotChunkCount, protowire.VarintType)
		dst = protowire.AppendVarint(dst, uint64(s.count))
	}
	if len(s.left) > 0 {
		n := 0
		for _, id := range s.left {
			n += protowire.SizeVarint(uint64(id))
		}
		dst = protowire.AppendTag(dst, fieldSnapshotLeftView, protowire.BytesType)
		dst = protowire.AppendVarint(dst, uint64(n))
		for _, id := range s.left {
			dst = protowire.AppendVarint(dst, uint64(id))
		}
	}
	if s.baseline != 0 {
		dst = protowire.AppendTag(dst, fieldSnapshotBaselineTick, protowire.VarintType)
		dst = protowire.AppendVarint(dst, uint64(s.baseline))
	}
	if len(s.unchanged) > 0 {
		dst = protowire.AppendTag(dst, fieldSnapshotUnchanged, protowire.BytesType)
		dst = protowire.AppendVarint(dst, uint64(varintsSize(s.unchanged)))
		for _, v := range s.unchanged {
			dst = protowire.AppendVarint(dst, uint64(v))
		}
	}
	if len(s.moved) > 0 {
		dst = protowire.AppendTag(dst, fieldSnapshotMoved, protowire.BytesType)
		dst = protowire.AppendVarint(dst, uint64(zigzagsSize(s.moved)))
		for _, v := range s.moved {
			dst = protowire.AppendVarint(dst, zigzag(v))
		}
	}
	return dst
}

// appendFrame appends s as a stream frame: the message with its varint length prefix.
func (s *snapPart) appendFrame(dst []byte) []byte {
	dst = protowire.AppendVarint(dst, uint64(s.messageSize()))
	return s.appendMessage(dst)
}

// encodeState returns dst with ps encoded (no tag or length). A PlayerState has only scalar
// fields, so an error here would be a bug in the generated code.
func encodeState(dst []byte, ps *tankv1.PlayerState) ([]byte, error) {
	return proto.MarshalOptions{}.MarshalAppend(dst[:0], ps)
}
