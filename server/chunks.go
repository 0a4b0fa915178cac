package server

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
)

// Snapshot chunks for the datagram lane. A tick's players are cut, in player_id order, into
// as few chunks as fit one datagram each; every chunk is a complete Snapshot message of its
// own (server_tick, chunk_index, chunk_count and whole PlayerStates), so a client can use any
// chunk without the others and a lost chunk costs only the tanks in it.

// maxChunks bounds the chunks of one tick; docs/PROTOCOL.md promises clients at most this.
// 256 players (Config's limit) of about 17 bytes need 4.
const maxChunks = 64

// chunkOverhead is an upper bound on what a chunk costs besides its players: the
// ServerMessage tag and length (1 + 3 bytes), Snapshot's server_tick, chunk_index and
// chunk_count fields (3 x (1 + 5)).
const chunkOverhead = 4 + 3*6

// chunkBounds appends to dst the end index (exclusive) of each chunk of players, each chunk
// fitting a datagram of budget bytes, and returns it. A single player larger than a chunk
// (impossible with the fields PlayerState has) still gets a chunk of its own.
func chunkBounds(players []*tankv1.PlayerState, budget int, dst []int) []int {
	used := 0
	for i, ps := range players {
		n := protowire.SizeTag(2) + protowire.SizeBytes(proto.Size(ps))
		if used > 0 && used+n > budget-chunkOverhead {
			dst = append(dst, i)
			used = 0
		}
		used += n
	}
	if len(players) > 0 || len(dst) == 0 {
		dst = append(dst, len(players))
	}
	return dst
}

// encodeChunks encodes snap's players as chunk datagrams (see chunkBounds), reusing msg and
// snap, and returns the payloads, each a new slice that peers may keep. snap.Players is left
// as it was. An encoding error (a bug: every chunk fits by construction) is returned.
func encodeChunks(msg *tankv1.ServerMessage, snap *tankv1.Snapshot, bounds []int) ([][]byte, error) {
	if len(bounds) > maxChunks {
		return nil, fmt.Errorf("server: snapshot needs %d chunks, more than %d", len(bounds), maxChunks)
	}
	all := snap.Players
	defer func() { snap.Players = all }()
	out := make([][]byte, 0, len(bounds))
	start := 0
	for i, end := range bounds {
		snap.Players = all[start:end]
		snap.ChunkIndex, snap.ChunkCount = uint32(i), uint32(len(bounds))
		b, err := transport.AppendDatagram(nil, msg)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
		start = end
	}
	snap.ChunkIndex, snap.ChunkCount = 0, 0
	return out, nil
}
