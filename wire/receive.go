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

// DecodeChunk decodes one snapshot chunk datagram into m (reset first) and checks it with
// CheckChunk against newest, the newest tick the receiver has seen. It returns an error for
// bytes that are not a usable chunk; m's content is then undefined. It never panics,
// whatever b holds.
func DecodeChunk(b []byte, m *tankv1.ServerMessage, newest uint32) error {
	if err := transport.DecodeDatagram(b, m); err != nil {
		return err
	}
	return CheckChunk(m.GetSnapshot(), newest)
}

// CheckChunk returns nil when c is a snapshot chunk a client can use: tick 1 or later and at
// most MaxTickLead past newest, index below count, count 1..MaxSnapshotChunks, and every
// player state of the chunk's own tick and of a player other than 0. A chunk's players may
// be unknown to the client, and its delta part may not be rebuildable (see
// Baselines.Rebuild): those are the client's to judge.
func CheckChunk(c *tankv1.Snapshot, newest uint32) error {
	t := c.GetServerTick()
	switch {
	case c == nil:
		return errNotSnapshot
	case t == 0:
		return errTickZero
	case uint64(t) > uint64(newest)+MaxTickLead:
		return errTickFarAhead
	case c.GetChunkCount() == 0 || c.GetChunkCount() > MaxSnapshotChunks:
		return errChunkCount
	case c.GetChunkIndex() >= c.GetChunkCount():
		return errChunkIndex
	}
	for _, ps := range c.GetPlayers() {
		if ps.GetTick() != t {
			return errStateTick
		}
		if ps.GetPlayerId() == 0 {
			return errStatePlayerID
		}
	}
	return nil
}
