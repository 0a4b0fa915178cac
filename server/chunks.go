package server

import (
	"fmt"

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

// chunkedDatagrams cuts a snapshot of tick with entries (in player_id order) and left (in
// chunk 0 only) into chunk datagrams of at most transport.MaxDatagramSize bytes each, as
// few as fit, and returns their payloads: sub-slices of one new buffer, which peers may keep.
func chunkedDatagrams(tick uint32, entries [][]byte, left []uint32, bounds []int) ([][]byte, []int, error) {
	// Every chunk gets the same worst-case allowance for its own fields, and chunk 0 room for
	// left_view, so the bounds hold whatever the final count turns out to be.
	budget := transport.MaxDatagramSize - chunkOverhead - leftSize(left)
	bounds = bounds[:0]
	used := 0
	for i, e := range entries {
		n := entrySize(e)
		if used > 0 && used+n > budget {
			bounds = append(bounds, i)
			used = 0
		}
		used += n
	}
	bounds = append(bounds, len(entries))
	if len(bounds) > maxChunks {
		return nil, bounds, fmt.Errorf("server: snapshot needs %d chunks, more than %d", len(bounds), maxChunks)
	}
	parts := make([]snapPart, len(bounds))
	total, start := 0, 0
	for i, end := range bounds {
		parts[i] = snapPart{tick: tick, entries: entries[start:end], index: uint32(i), count: uint32(len(bounds))}
		if i == 0 {
			parts[i].left = left
		}
		total += parts[i].messageSize()
		start = end
	}
	buf := make([]byte, 0, total)
	out := make([][]byte, len(parts))
	for i := range parts {
		from := len(buf)
		buf = parts[i].appendMessage(buf)
		if len(buf)-from > transport.MaxDatagramSize { // a bug: the budget above makes it fit
			return nil, bounds, fmt.Errorf("server: snapshot chunk of %d bytes exceeds a datagram", len(buf)-from)
		}
		out[i] = buf[from:len(buf):len(buf)]
	}
	return out, bounds, nil
}
