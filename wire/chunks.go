package wire

import (
	"fmt"
	"math"

	"google.golang.org/protobuf/encoding/protowire"

	"tanknet/netcode"
	"tanknet/transport"
)

// Snapshot chunks for the datagram lane. A tick's tanks are cut, in player_id order, into
// chunks of one datagram each, each filled while a bound on its size (a few bytes over) fits;
// every chunk is a complete Snapshot message of its own (server_tick, chunk_index,
// chunk_count, its tanks and the baseline they are described against), so a client can use
// any chunk without the others and a lost chunk costs only the tanks in it.
//
// Delta encoding: a client acknowledges the newest tick of which it got every chunk, and the
// server may describe each tank against what that tick told the client: an id (about a byte)
// for a tank exactly as it was, four small numbers for one that moved, and the whole state
// for anything else (a tank new to the client, or whose combat state changed). Which baseline
// to use, and which tanks must travel whole anyway, is the caller's choice.

// chunkOverhead is an upper bound on what a chunk costs besides its tanks: the
// ServerMessage tag and length (1 + 3 bytes), Snapshot's server_tick, chunk_index and
// chunk_count fields (3 x (1 + 5)).
const chunkOverhead = 4 + 3*6

// deltaChunk is one chunk of a snapshot being built.
type deltaChunk struct {
	entries                  [][]byte // whole PlayerStates
	unchanged                []uint32 // id gaps
	moved                    []int32  // id gap, dx, dy, dheading per tank
	lastUnchanged, lastMoved uint32
	entryBytes               int
	unchangedBytes           int // of the packed values
	movedBytes               int
}

// size is the chunk's encoded ServerMessage size, within a few bytes over (never under).
func (c *deltaChunk) size(left int) int {
	return chunkOverhead + 6 + left + c.entryBytes + packedSize(c.unchangedBytes) + packedSize(c.movedBytes)
}

// DeltaBuilder cuts one client's snapshot of one tick into chunk datagrams. Call Reset, Add
// every tank in player_id order, then Datagrams. It keeps its scratch from one snapshot to
// the next, so a builder reused every tick allocates only the datagrams' buffer and their
// slice. It is not safe for concurrent use; the header's Left and the entries given to Add
// must stay unchanged until Datagrams.
type DeltaBuilder struct {
	h        Header
	baseline uint32
	chunks   []deltaChunk
	left     int    // bytes of left_view, in chunk 0
	parts    []part // Datagrams' scratch: the chunks as messages
}

// Reset starts the snapshot h, its tanks to be described against the snapshot of tick
// baseline (0: none, every tank whole).
func (b *DeltaBuilder) Reset(h Header, baseline uint32) {
	for i := range b.chunks {
		c := &b.chunks[i]
		c.entries, c.unchanged, c.moved = c.entries[:0], c.unchanged[:0], c.moved[:0]
		c.lastUnchanged, c.lastMoved, c.entryBytes, c.unchangedBytes, c.movedBytes = 0, 0, 0, 0, 0
	}
	if cap(b.chunks) == 0 {
		b.chunks = make([]deltaChunk, 1, 4)
	}
	b.chunks = b.chunks[:1]
	b.h, b.baseline, b.left = h, baseline, leftSize(h.Left)
}

// Add adds tank now, whose entry (see EntryEncoder) is entry, and returns what it costs in
// bytes. With hasBase, base is what the baseline said of the same tank: an unchanged tank
// costs its id, one that only moved its id and offsets; without, or when its combat state
// changed (or it moved further than an offset says, 2^31 grid steps), the tank travels
// whole. A tank described against the baseline keeps the baseline's Ack on arrival. With no
// baseline given to Reset, every tank travels whole.
func (b *DeltaBuilder) Add(entry []byte, now, base Tank, hasBase bool) int {
	switch {
	case !hasBase || b.baseline == 0 || base.Combat != now.Combat || !offsetFits(base.Grid.X, now.Grid.X) || !offsetFits(base.Grid.Y, now.Grid.Y):
		return b.whole(entry)
	case base.Grid == now.Grid:
		return b.same(now.ID)
	default:
		return b.move(now.ID, base.Grid, now.Grid)
	}
}

// offsetFits reports whether the move from a to b is an int32 offset (moved carries int32s).
func offsetFits(a, b uint32) bool {
	d := int64(b) - int64(a)
	return d >= math.MinInt32 && d <= math.MaxInt32
}

// room returns the chunk to add n more bytes to, opening a new one when the last is full.
func (b *DeltaBuilder) room(n int) *deltaChunk {
	c := &b.chunks[len(b.chunks)-1]
	left := 0
	if len(b.chunks) == 1 {
		left = b.left
	}
	empty := len(c.entries) == 0 && len(c.unchanged) == 0 && len(c.moved) == 0
	if !empty && c.size(left)+n > transport.MaxDatagramSize {
		if len(b.chunks) < cap(b.chunks) {
			b.chunks = b.chunks[:len(b.chunks)+1]
		} else {
			b.chunks = append(b.chunks, deltaChunk{})
		}
		c = &b.chunks[len(b.chunks)-1]
	}
	return c
}

// whole adds a whole PlayerState and returns its cost in bytes.
func (b *DeltaBuilder) whole(e []byte) int {
	n := EntrySize(e)
	c := b.room(n + 3) // + the packed fields' headers growing
	c.entries = append(c.entries, e)
	c.entryBytes += n
	return n
}

// same adds a tank unchanged since the baseline and returns its cost in bytes.
func (b *DeltaBuilder) same(id uint32) int {
	c := b.room(3 + protowire.SizeVarint(uint64(id)))
	gap := id - c.lastUnchanged
	c.lastUnchanged = id
	n := protowire.SizeVarint(uint64(gap))
	c.unchanged = append(c.unchanged, gap)
	c.unchangedBytes += n
	return n
}

// move adds a tank that moved from base to now and returns its cost in bytes.
func (b *DeltaBuilder) move(id uint32, base, now netcode.GridPose) int {
	d := [4]int32{0, int32(now.X - base.X), int32(now.Y - base.Y), now.Heading - base.Heading}
	worst := 3 + protowire.SizeVarint(zigzag(int32(id)))
	for _, v := range d[1:] {
		worst += protowire.SizeVarint(zigzag(v))
	}
	c := b.room(worst)
	d[0] = int32(id - c.lastMoved)
	c.lastMoved = id
	n := 0
	for _, v := range d {
		n += protowire.SizeVarint(zigzag(v))
	}
	c.moved = append(c.moved, d[:]...)
	c.movedBytes += n
	return n
}

// Datagrams encodes the chunks, each with the header's tick and the baseline (the Left ids
// in chunk 0 only), and returns their payloads: sub-slices of one new buffer, which the
// caller may share and keep.
func (b *DeltaBuilder) Datagrams() ([][]byte, error) {
	if len(b.chunks) > MaxSnapshotChunks {
		return nil, fmt.Errorf("wire: snapshot needs %d chunks, more than %d", len(b.chunks), MaxSnapshotChunks)
	}
	b.parts = append(b.parts[:0], make([]part, len(b.chunks))...)
	parts := b.parts
	total := 0
	for i := range b.chunks {
		c := &b.chunks[i]
		parts[i] = part{h: b.h, entries: c.entries, index: uint32(i), count: uint32(len(b.chunks)),
			baseline: b.baseline, unchanged: c.unchanged, moved: c.moved}
		if i > 0 {
			parts[i].h.Left = nil
		}
		total += parts[i].messageSize()
	}
	buf := make([]byte, 0, total)
	out := make([][]byte, len(parts))
	for i := range parts {
		from := len(buf)
		buf = parts[i].appendMessage(buf)
		if len(buf)-from > transport.MaxDatagramSize { // a bug: room keeps every chunk inside
			return nil, fmt.Errorf("wire: snapshot chunk of %d bytes exceeds a datagram", len(buf)-from)
		}
		out[i] = buf[from:len(buf):len(buf)]
	}
	return out, nil
}
