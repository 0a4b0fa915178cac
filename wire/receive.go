package wire

import (
	"errors"
	"fmt"

	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
)

// What a client checks of a snapshot chunk datagram before it uses it. The reasons are
// fixed errors, so refusing a datagram allocates nothing beyond the decode.
var (
	errNotSnapshot   = errors.New("wire: datagram is not a snapshot")
	errTickZero      = errors.New("wire: snapshot chunk of tick 0")
	errTickFarAhead  = fmt.Errorf("wire: snapshot chunk more than %d ticks past the newest", MaxTickLead)
	errChunkCount    = fmt.Errorf("wire: snapshot chunk count outside 1..%d", MaxSnapshotChunks)
	errChunkIndex    = errors.New("wire: snapshot chunk index not below its count")
	errStateTick     = errors.New("wire: player state of another tick than its snapshot")
	errStatePlayerID = errors.New("wire: player state of player 0")
)

// ReceiveChunk decodes snapshot chunk datagram b and returns what it says, when it is a
// chunk a client can use: a Snapshot of tick 1 or later and at most MaxTickLead past newest
// (the newest tick the receiver has seen), count 1..MaxSnapshotChunks and index below it,
// every state it carries whole of its tick and of a player other than 0
// (SnapshotFromProto). Otherwise it returns why not. A chunk's players may be unknown to the
// client, and its delta part may not be rebuildable (Baselines.Tanks): those are the
// client's to judge. It never panics, whatever b holds.
func ReceiveChunk(b []byte, newest uint32) (*Snapshot, error) {
	var m tankv1.ServerMessage
	if err := transport.DecodeDatagram(b, &m); err != nil {
		return nil, err
	}
	c := m.GetSnapshot()
	t := c.GetServerTick()
	switch {
	case c == nil:
		return nil, errNotSnapshot
	case t == 0:
		return nil, errTickZero
	case uint64(t) > uint64(newest)+MaxTickLead:
		return nil, errTickFarAhead
	case c.GetChunkCount() == 0 || c.GetChunkCount() > MaxSnapshotChunks:
		return nil, errChunkCount
	case c.GetChunkIndex() >= c.GetChunkCount():
		return nil, errChunkIndex
	}
	return SnapshotFromProto(c)
}
