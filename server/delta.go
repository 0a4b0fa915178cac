package server

import (
	"cmp"
	"fmt"
	"slices"

	"google.golang.org/protobuf/encoding/protowire"

	"tanknet/netcode"
	"tanknet/transport"
)

// Delta snapshots (datagram lane). Every client acknowledges the newest tick of which it got
// every chunk (InputBatch.snapshot_ack_tick). When the server still has what it sent that
// client in that tick, it sends each tank the client saw then against that state: an id
// (about a byte) for a tank exactly as it was, four small numbers for one that moved, and
// the whole PlayerState only for tanks new to the client, tanks whose combat state changed,
// and the client's own tank. A lost or old baseline costs nothing but bytes: the server
// only ever uses a tick the client says it has, and sends whole states when it has none.

// deltaWindow is how many ticks of what it sent each client the server keeps as possible
// baselines: 1.6 s, more than a round trip plus the acknowledgement's own delay on every
// network preset. An acknowledgement older than that gets whole states.
const deltaWindow = 32

// tankState is what a snapshot told a client of one tank, as delta encoding compares it.
type tankState struct {
	id     uint32
	grid   netcode.GridPose
	combat combatState
}

// combatState is the part of a PlayerState a delta does not carry: when it changes, the tank
// travels whole.
type combatState struct {
	health, kills, deaths uint32
	destroyed, protected  bool
}

// sentLog is one client's record of the snapshots it was sent, by tick modulo deltaWindow.
type sentLog [deltaWindow]sentSnapshot

// sentSnapshot is the tanks one snapshot sent one client, in id order.
type sentSnapshot struct {
	tick  uint32
	tanks []tankState
}

// begin empties and returns the record for tick.
func (l *sentLog) begin(tick uint32) *sentSnapshot {
	s := &l[tick%deltaWindow]
	s.tick, s.tanks = tick, s.tanks[:0]
	return s
}

// at returns the record for tick, or nil when it is gone or was never made.
func (l *sentLog) at(tick uint32) *sentSnapshot {
	if s := &l[tick%deltaWindow]; tick != 0 && s.tick == tick {
		return s
	}
	return nil
}

// find returns the state of tank id in s.
func (s *sentSnapshot) find(id uint32) (tankState, bool) {
	i, ok := slices.BinarySearchFunc(s.tanks, id, func(t tankState, id uint32) int { return cmp.Compare(t.id, id) })
	if !ok {
		return tankState{}, false
	}
	return s.tanks[i], true
}

// deltaChunk is one chunk of a delta snapshot being built.
type deltaChunk struct {
	entries                  [][]byte // whole PlayerStates
	unchanged                []uint32 // id gaps
	moved                    []int32  // id gap, dx, dy, dheading per tank
	lastUnchanged, lastMoved uint32
	entryBytes               int
	unchangedBytes           int // of the packed values
	movedBytes               int
}

// packedSize is what a packed field of n value bytes costs (0 when empty).
func packedSize(n int) int {
	if n == 0 {
		return 0
	}
	return 1 + protowire.SizeVarint(uint64(n)) + n
}

// size is the chunk's encoded ServerMessage size, within a few bytes over (never under).
func (c *deltaChunk) size(left int) int {
	return chunkOverhead + 6 + left + c.entryBytes + packedSize(c.unchangedBytes) + packedSize(c.movedBytes)
}

func zigzag(v int32) uint64 { return protowire.EncodeZigZag(int64(v)) }

// deltaBuilder cuts one client's snapshot into delta chunks.
type deltaBuilder struct {
	chunks []deltaChunk
	left   int        // bytes of left_view, in chunk 0
	parts  []snapPart // datagrams' scratch: the chunks as messages
}

func (b *deltaBuilder) reset(leftBytes int) {
	for i := range b.chunks {
		c := &b.chunks[i]
		c.entries, c.unchanged, c.moved = c.entries[:0], c.unchanged[:0], c.moved[:0]
		c.lastUnchanged, c.lastMoved, c.entryBytes, c.unchangedBytes, c.movedBytes = 0, 0, 0, 0, 0
	}
	if cap(b.chunks) == 0 {
		b.chunks = make([]deltaChunk, 1, 4)
	}
	b.chunks = b.chunks[:1]
	b.left = leftBytes
}

// room returns the chunk to add n more bytes to, opening a new one when the last is full.
func (b *deltaBuilder) room(n int) *deltaChunk {
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
func (b *deltaBuilder) whole(e []byte) int {
	n := entrySize(e)
	c := b.room(n + 3) // + the packed fields' headers growing
	c.entries = append(c.entries, e)
	c.entryBytes += n
	return n
}

// same adds a tank unchanged since the baseline and returns its cost in bytes.
func (b *deltaBuilder) same(id uint32) int {
	c := b.room(3 + protowire.SizeVarint(uint64(id)))
	gap := id - c.lastUnchanged
	c.lastUnchanged = id
	n := protowire.SizeVarint(uint64(gap))
	c.unchanged = append(c.unchanged, gap)
	c.unchangedBytes += n
	return n
}

// move adds a tank that moved from base to now and returns its cost in bytes.
func (b *deltaBuilder) move(id uint32, base, now netcode.GridPose) int {
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

// datagrams encodes the chunks of tick against baseline (0: none) with left in chunk 0 and
// returns their payloads: sub-slices of one new buffer, which peers may keep.
func (b *deltaBuilder) datagrams(tick, baseline uint32, left []uint32) ([][]byte, error) {
	if len(b.chunks) > transport.MaxSnapshotChunks {
		return nil, fmt.Errorf("server: snapshot needs %d chunks, more than %d", len(b.chunks), transport.MaxSnapshotChunks)
	}
	b.parts = append(b.parts[:0], make([]snapPart, len(b.chunks))...)
	parts := b.parts
	total := 0
	for i := range b.chunks {
		c := &b.chunks[i]
		parts[i] = snapPart{tick: tick, entries: c.entries, index: uint32(i), count: uint32(len(b.chunks)),
			baseline: baseline, unchanged: c.unchanged, moved: c.moved}
		if i == 0 {
			parts[i].left = left
		}
		total += parts[i].messageSize()
	}
	buf := make([]byte, 0, total)
	out := make([][]byte, len(parts))
	for i := range parts {
		from := len(buf)
		buf = parts[i].appendMessage(buf)
		if len(buf)-from > transport.MaxDatagramSize { // a bug: room keeps every chunk inside
			return nil, fmt.Errorf("server: snapshot chunk of %d bytes exceeds a datagram", len(buf)-from)
		}
		out[i] = buf[from:len(buf):len(buf)]
	}
	return out, nil
}
