package wire

import (
	"google.golang.org/protobuf/encoding/protowire"
)

// Snapshots are assembled by hand from each tank's entry (see EntryEncoder), encoded once per
// tick: with interest management every client gets its own selection, and copying ready
// bytes costs a fraction of marshalling the same states again per client. The bytes are
// exactly what proto.Marshal writes for the same Snapshot (fields in number order), so
// receivers decode them with the generated code like any other message.

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

// Header is what a snapshot says besides its tanks. A field added to every snapshot goes
// here and in part's encoding (in field-number order, so the bytes stay what proto.Marshal
// writes; TestPart_SameBytesAsProto gets a case for it).
type Header struct {
	Tick uint32   // the server tick the snapshot is of
	Left []uint32 // ids of tanks that left the client's view (Snapshot.left_view); in chunk 0 only
}

// part is one snapshot message's content: its header, the tanks' entries in player_id
// order; for a chunk its index and count, and for a delta its baseline and the tanks
// described against it.
type part struct {
	h            Header
	entries      [][]byte
	index, count uint32   // chunk index and count; 0, 0 for a whole snapshot
	baseline     uint32   // delta encoding: the baseline tick, 0 for none
	unchanged    []uint32 // id gaps of tanks unchanged since the baseline
	moved        []int32  // id gap, dx, dy, dheading of tanks that moved since it
}

// EntrySize is what one tank's entry costs inside a Snapshot, in bytes.
func EntrySize(entry []byte) int {
	return protowire.SizeTag(fieldSnapshotPlayers) + protowire.SizeBytes(len(entry))
}

// leftSize is what a left_view field of ids costs (0 for none).
func leftSize(ids []uint32) int {
	if len(ids) == 0 {
		return 0
	}
	return protowire.SizeTag(fieldSnapshotLeftView) + protowire.SizeBytes(varintsSize(ids))
}

// packedSize is what a packed field of n value bytes costs (0 when empty).
func packedSize(n int) int {
	if n == 0 {
		return 0
	}
	return 1 + protowire.SizeVarint(uint64(n)) + n
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

func zigzag(v int32) uint64 { return protowire.EncodeZigZag(int64(v)) }

func (s *part) bodySize() int {
	n := protowire.SizeTag(fieldSnapshotServerTick) + protowire.SizeVarint(uint64(s.h.Tick))
	if s.h.Tick == 0 {
		n = 0
	}
	for _, e := range s.entries {
		n += EntrySize(e)
	}
	if s.index != 0 {
		n += protowire.SizeTag(fieldSnapshotChunkIndex) + protowire.SizeVarint(uint64(s.index))
	}
	if s.count != 0 {
		n += protowire.SizeTag(fieldSnapshotChunkCount) + protowire.SizeVarint(uint64(s.count))
	}
	n += leftSize(s.h.Left)
	if s.baseline != 0 {
		n += protowire.SizeTag(fieldSnapshotBaselineTick) + protowire.SizeVarint(uint64(s.baseline))
	}
	return n + packedSize(varintsSize(s.unchanged)) + packedSize(zigzagsSize(s.moved))
}

// messageSize is the encoded size of the ServerMessage carrying s.
func (s *part) messageSize() int {
	return protowire.SizeTag(fieldServerMessageSnapshot) + protowire.SizeBytes(s.bodySize())
}

// appendMessage appends the ServerMessage{snapshot: s} encoding to dst.
func (s *part) appendMessage(dst []byte) []byte {
	dst = protowire.AppendTag(dst, fieldServerMessageSnapshot, protowire.BytesType)
	dst = protowire.AppendVarint(dst, uint64(s.bodySize()))
	if s.h.Tick != 0 {
		dst = protowire.AppendTag(dst, fieldSnapshotServerTick, protowire.VarintType)
		dst = protowire.AppendVarint(dst, uint64(s.h.Tick))
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
	if len(s.h.Left) > 0 {
		dst = protowire.AppendTag(dst, fieldSnapshotLeftView, protowire.BytesType)
		dst = protowire.AppendVarint(dst, uint64(varintsSize(s.h.Left)))
		for _, id := range s.h.Left {
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

// StreamFrame returns the snapshot h with the entries of its tanks (in player_id order) for
// the reliable stream, framed as transport.AppendFrame frames a message (varint length, then
// the ServerMessage). The one new buffer it allocates may be shared read-only by every
// session it is sent to.
func StreamFrame(h Header, entries [][]byte) []byte {
	s := part{h: h, entries: entries}
	size := s.messageSize()
	dst := make([]byte, 0, protowire.SizeVarint(uint64(size))+size)
	dst = protowire.AppendVarint(dst, uint64(size))
	return s.appendMessage(dst)
}
