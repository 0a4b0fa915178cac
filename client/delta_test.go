package client

import (
	"math"
	"testing"
	"time"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
	"tanknet/wire"
)

// chunkOf is a one-chunk delta snapshot of tick against baseline.
func chunkOf(tick, baseline uint32, whole []*tankv1.PlayerState, unchanged []uint32, moved []int32) Received {
	return Received{Datagram: true, Msg: decoded(&tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Snapshot{Snapshot: &tankv1.Snapshot{
		ServerTick: tick, ChunkIndex: 0, ChunkCount: 1, Players: whole,
		BaselineTick: baseline, Unchanged: unchanged, Moved: moved}}})}
}

// TestDelta_OldLostAndGoodBaselines: tanks against a baseline the client has are rebuilt
// exactly, an old baseline as well as the previous tick; a chunk against a baseline the
// client lost is used for its whole states only, counted, and its tick never acknowledged.
func TestDelta_OldLostAndGoodBaselines(t *testing.T) {
	g, _, start := offlineGame(t)
	g.others.names[2], g.others.names[3] = "still", "mover"
	state := func(id, tick uint32, p netcode.Pose) *tankv1.PlayerState {
		return wire.StateToProto(id, netcode.State{Tick: tick, Pose: p})
	}
	me, still, mover := netcode.Pose{X: 5, Y: 5}, netcode.Pose{X: 20, Y: 10}, netcode.Pose{X: 30, Y: 12}
	apply := func(r Received) {
		r.At = start
		g.receive(r)
	}
	apply(chunkOf(10, 0, []*tankv1.PlayerState{state(1, 10, me), state(2, 10, still), state(3, 10, mover)}, nil, nil))

	// Tick 15 against tick 10 (an old baseline): tank 2 unchanged, tank 3 moved 1 unit in x.
	moved := netcode.Pose{X: 31, Y: 12}
	apply(chunkOf(15, 10, []*tankv1.PlayerState{state(1, 15, me)}, []uint32{2}, []int32{3, netcode.GridPerUnit, 0, 0}))
	if n, ok := g.Remotes()[3].Interp.Newest(); !ok || n.Tick != 15 || n.Pose != netcode.ToGrid(moved).Pose() {
		t.Errorf("mover rebuilt as %+v, want tick 15 at %v", n, moved)
	}
	if n, ok := g.Remotes()[2].Interp.Newest(); !ok || n.Tick != 15 || n.Pose != netcode.ToGrid(still).Pose() {
		t.Errorf("still tank rebuilt as %+v, want tick 15 at %v", n, still)
	}
	if tick, _ := g.lanes.arrivals.ack(); tick != 15 {
		t.Errorf("acknowledged %d, want 15", tick)
	}

	// Tick 16 against tick 12, which never came: whole states still count, the rest cannot.
	apply(chunkOf(16, 12, []*tankv1.PlayerState{state(1, 16, me)}, []uint32{2}, []int32{3, 5, 0, 0}))
	if g.Stats().DeltaUnusable != 1 {
		t.Errorf("DeltaUnusable = %d, want 1", g.Stats().DeltaUnusable)
	}
	if tick, _ := g.lanes.arrivals.ack(); tick != 15 {
		t.Errorf("acknowledged %d after an unusable tick 16, want still 15", tick)
	}
	if n, _ := g.Remotes()[3].Interp.Newest(); n.Tick != 15 {
		t.Errorf("mover has a state of tick %d from a chunk whose baseline was lost", n.Tick)
	}
	if b := g.Local().Baseline(); b.Tick != 16 {
		t.Errorf("own tank's whole state of tick 16 not used (baseline tick %d)", b.Tick)
	}

	// Malformed deltas are refused, never a panic: a moved list not in fours, a baseline
	// after the tick, gaps that wrap, coordinates that would go negative.
	for _, r := range []Received{
		chunkOf(17, 15, nil, nil, []int32{3, 1, 2}),
		chunkOf(18, 19, nil, []uint32{2}, nil),
		chunkOf(19, 15, nil, []uint32{2, 1 << 31, 1 << 31}, nil),
		chunkOf(20, 15, nil, nil, []int32{3, -1 << 30, -1 << 30, 0}),
	} {
		apply(r)
	}
	if g.Stats().DeltaUnusable != 5 {
		t.Errorf("DeltaUnusable = %d after four malformed chunks, want 5", g.Stats().DeltaUnusable)
	}
}

// FuzzDeltaChunk hands arbitrary bytes, as a datagram, to a Game that holds a baseline
// (tick 10, tanks 1 to 6): whatever a delta chunk says, nothing panics, a remote exists only
// for a player the roster announced, and every rebuilt pose is finite.
func FuzzDeltaChunk(f *testing.F) {
	for _, snap := range []*tankv1.Snapshot{
		{ServerTick: 11, ChunkCount: 1, BaselineTick: 10, Unchanged: []uint32{2, 1}, Moved: []int32{4, 100, -100, 5}},
		{ServerTick: 12, ChunkCount: 1, BaselineTick: 10, Moved: []int32{3, -1 << 31, 1<<31 - 1, 1 << 20}},
		{ServerTick: 11, ChunkCount: 1, BaselineTick: 9, Unchanged: []uint32{1}},
	} {
		b, err := transport.AppendDatagram(nil, &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Snapshot{Snapshot: snap}})
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	base, err := transport.AppendDatagram(nil, chunkMsg(10, 0, 1, 1, 2, 3, 4, 5, 6))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		g, sess, start := datagramGame(t)
		sess.onDatagram(base)
		sess.onDatagram(b)
		g.pace.last = start
		if err := g.Update(start.Add(time.Millisecond), netcode.Input{}); err != nil {
			t.Fatal(err)
		}
		for id, rm := range g.Remotes() {
			if g.others.names[id] == "" {
				t.Fatalf("remote %d tracked without a roster entry", id)
			}
			if n, ok := rm.Interp.Newest(); ok && (math.IsNaN(n.Pose.X+n.Pose.Y+n.Pose.Heading) || math.IsInf(n.Pose.X+n.Pose.Y+n.Pose.Heading, 0)) {
				t.Fatalf("remote %d rebuilt at %v", id, n.Pose)
			}
		}
	})
}
