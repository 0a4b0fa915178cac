package wire

import (
	"errors"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"

	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
)

// ChunkHead is what ScanChunk reads of a snapshot chunk: its header, how long its delta
// lists are, and one player's whole state's acknowledged move tick. It is what a client that
// draws nothing needs: enough to acknowledge the snapshot and to see its inputs applied.
type ChunkHead struct {
	Tick, Index, Count uint32
	Baseline           uint32 // the baseline tick, 0 for none
	Unchanged, Moved   int    // how many values the unchanged and moved lists hold
	// Own is true when the chunk carries the asked-for player's state whole, and OwnAck is
	// that state's acknowledged move tick (the last such state's, should there be several).
	Own    bool
	OwnAck uint32
}

// snapshotOneof is the field numbers of ServerMessage's oneof besides snapshot: one of them
// after a snapshot field replaces it, as proto.Unmarshal does.
var snapshotOneof = func() map[protowire.Number]bool {
	fs := (&tankv1.ServerMessage{}).ProtoReflect().Descriptor().Fields()
	out := map[protowire.Number]bool{}
	for i := range fs.Len() {
		f := fs.Get(i)
		if f.ContainingOneof() != nil && f.Kind() == protoreflect.MessageKind && f.Number() != fieldServerMessageSnapshot {
			out[f.Number()] = true
		}
	}
	return out
}()

// PlayerState's fields ScanChunk reads.
const (
	fieldStatePlayerID protowire.Number = 1
	fieldStateTick     protowire.Number = 2
	fieldStateAck      protowire.Number = 5
)

// ScanChunk reads snapshot chunk datagram b as ReceiveChunk does, and refuses it for the same
// reasons, without decoding it into messages: it allocates nothing and keeps of the players'
// states only self's acknowledged move tick. Every chunk ReceiveChunk accepts, ScanChunk
// accepts with the same header; it may accept some ReceiveChunk refuses (malformed bytes
// inside a player state's fields it does not read, or inside another member of the
// ServerMessage oneof), so a client that uses what it reads must not need more. Whether the
// delta part can be rebuilt is the caller's to judge (see Baselines.Tanks: a chunk with
// Unchanged or Moved needs its baseline, and Moved must be a multiple of 4). It never
// panics, whatever b holds.
func ScanChunk(b []byte, newest, self uint32) (ChunkHead, error) {
	if len(b) > transport.MaxDatagramSize {
		return ChunkHead{}, errBadChunk
	}
	var s chunkScan
	snapshot := false
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return ChunkHead{}, errBadChunk
		}
		b = b[n:]
		m := protowire.ConsumeFieldValue(num, typ, b)
		if m < 0 {
			return ChunkHead{}, errBadChunk
		}
		switch {
		case num == fieldServerMessageSnapshot && typ == protowire.BytesType:
			if !snapshot {
				s, snapshot = chunkScan{}, true // a snapshot after another member starts afresh
			}
			v, _ := protowire.ConsumeBytes(b[:m])
			if !s.body(v, self) {
				return ChunkHead{}, errBadChunk
			}
		case typ == protowire.BytesType && snapshotOneof[num]:
			snapshot = false
		}
		b = b[m:]
	}
	h := s.head
	switch {
	case !snapshot:
		return ChunkHead{}, errNotSnapshot
	case h.Tick == 0:
		return ChunkHead{}, errTickZero
	case uint64(h.Tick) > uint64(newest)+MaxTickLead:
		return ChunkHead{}, errTickFarAhead
	case h.Count == 0 || h.Count > MaxSnapshotChunks:
		return ChunkHead{}, errChunkCount
	case h.Index >= h.Count:
		return ChunkHead{}, errChunkIndex
	case s.states > 0 && (s.minTick != h.Tick || s.maxTick != h.Tick):
		return ChunkHead{}, errStateTick
	case s.zeroID:
		return ChunkHead{}, errStatePlayerID
	}
	return h, nil
}

// errBadChunk is bytes that are no protobuf message.
var errBadChunk = errors.New("wire: snapshot chunk is malformed")

// chunkScan is what ScanChunk has read so far.
type chunkScan struct {
	head             ChunkHead
	states           int    // player states seen
	minTick, maxTick uint32 // of the states
	zeroID           bool   // a state of player 0
}

// body reads one Snapshot message's bytes into s (a repeated one merges, as protobuf does)
// and reports false when they are malformed.
func (s *chunkScan) body(b []byte, self uint32) bool {
	for len(b) > 0 {
		num, typ, v, rest, ok := nextField(b)
		if !ok {
			return false
		}
		b = rest
		switch {
		case typ == protowire.VarintType && num == fieldSnapshotServerTick:
			s.head.Tick = varint32(v)
		case typ == protowire.VarintType && num == fieldSnapshotChunkIndex:
			s.head.Index = varint32(v)
		case typ == protowire.VarintType && num == fieldSnapshotChunkCount:
			s.head.Count = varint32(v)
		case typ == protowire.VarintType && num == fieldSnapshotBaselineTick:
			s.head.Baseline = varint32(v)
		case typ == protowire.BytesType && num == fieldSnapshotPlayers:
			p, _ := protowire.ConsumeBytes(v)
			if !s.state(p, self) {
				return false
			}
		case num == fieldSnapshotUnchanged || num == fieldSnapshotMoved || num == fieldSnapshotLeftView:
			k := repeatedCount(typ, v)
			switch {
			case k < 0:
				return false
			case num == fieldSnapshotUnchanged:
				s.head.Unchanged += k
			case num == fieldSnapshotMoved:
				s.head.Moved += k
			}
		}
	}
	return true
}

// state reads one PlayerState's bytes and reports false when they are malformed.
func (s *chunkScan) state(b []byte, self uint32) bool {
	var id, tick, ack uint32
	for len(b) > 0 {
		num, typ, v, rest, ok := nextField(b)
		if !ok {
			return false
		}
		b = rest
		if typ == protowire.VarintType {
			switch num {
			case fieldStatePlayerID:
				id = varint32(v)
			case fieldStateTick:
				tick = varint32(v)
			case fieldStateAck:
				ack = varint32(v)
			}
		}
	}
	if s.states == 0 {
		s.minTick, s.maxTick = tick, tick
	}
	s.states++
	s.minTick, s.maxTick = min(s.minTick, tick), max(s.maxTick, tick)
	s.zeroID = s.zeroID || id == 0
	if id == self && self != 0 {
		s.head.Own, s.head.OwnAck = true, ack
	}
	return true
}

// nextField splits the first field off b: its number, its wire type, its value's bytes (a
// varint's, or a length-delimited field's with its length) and what follows; ok is false
// when b does not begin with a whole field.
func nextField(b []byte) (num protowire.Number, typ protowire.Type, v, rest []byte, ok bool) {
	num, typ, n := protowire.ConsumeTag(b)
	if n < 0 {
		return 0, 0, nil, nil, false
	}
	b = b[n:]
	m := protowire.ConsumeFieldValue(num, typ, b)
	if m < 0 {
		return 0, 0, nil, nil, false
	}
	return num, typ, b[:m], b[m:], true
}

// varint32 is a varint field's value (already checked whole) as proto's uint32 or int32
// takes it: the low 32 bits.
func varint32(v []byte) uint32 {
	x, _ := protowire.ConsumeVarint(v)
	return uint32(x)
}

// repeatedCount returns how many values a repeated varint field's occurrence holds, packed
// (bytes of varints) or not (one varint); -1 when a packed list is malformed, and 0 for a
// wire type protobuf would keep as an unknown field.
func repeatedCount(typ protowire.Type, v []byte) int {
	switch typ {
	case protowire.VarintType:
		return 1
	case protowire.BytesType:
		p, _ := protowire.ConsumeBytes(v)
		k := 0
		for len(p) > 0 {
			_, n := protowire.ConsumeVarint(p)
			if n < 0 {
				return -1
			}
			p = p[n:]
			k++
		}
		return k
	}
	return 0
}
