package client

import (
	"slices"
	"testing"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/wire"
)

func snapOf(r Received) *wire.Snapshot { return r.Msg.(*wire.Snapshot) }

// TestLanes_DeltasBuildOnKeptStates: on the datagram lane every tank used is kept to build
// on; a delta against a tick never kept is unusable and its tick never acknowledged. The
// reliable lane keeps nothing (its server sends no deltas).
func TestLanes_DeltasBuildOnKeptStates(t *testing.T) {
	whole := func(tick uint32) Received {
		return chunkOf(tick, 0, []*tankv1.PlayerState{
			wire.StateToProto(2, netcode.State{Tick: tick, Pose: netcode.Pose{X: 20, Y: 10}})}, nil, nil)
	}
	for _, lane := range []wire.Lane{wire.LaneDatagram, wire.LaneReliable} {
		l := newLanes(lane)
		var used []uint32
		use := func(t wire.Tank) { used = append(used, t.ID) }
		if !l.accept(0, snapOf(whole(10))) || !l.tanks(snapOf(whole(10)), use) {
			t.Fatalf("%v: a whole snapshot was refused", lane)
		}
		if l.accept(0, snapOf(whole(10))) {
			t.Errorf("%v: the same chunk was accepted twice", lane)
		}
		delta := snapOf(chunkOf(11, 10, nil, []uint32{2}, nil))
		l.accept(0, delta)
		ok := l.tanks(delta, use)
		if datagram := lane == wire.LaneDatagram; ok != datagram || (datagram && !slices.Equal(used, []uint32{2, 2})) {
			t.Errorf("%v: a delta against tick 10 usable %v, tanks used %v", lane, ok, used)
		}
		lost := snapOf(chunkOf(12, 9, nil, []uint32{2}, nil))
		l.accept(0, lost)
		if l.tanks(lost, use) {
			t.Errorf("%v: a delta against a tick never kept was usable", lane)
		}
		if tick, _ := l.ack(); lane == wire.LaneDatagram && tick != 11 {
			t.Errorf("%v: acknowledged %d, want 11 (12 is spoiled)", lane, tick)
		}
	}
}

func TestLanes_HistorySaysWhatCameOfEachTick(t *testing.T) {
	l := newLanes(wire.LaneDatagram)
	if got, newest := l.history(nil, 3); len(got) != 0 || newest != 0 {
		t.Fatalf("history before any snapshot = %v, %d", got, newest)
	}
	for _, c := range [][3]uint32{{2, 0, 1}, {3, 0, 2}, {5, 0, 1}} { // tick, index, count
		l.accept(0, &wire.Snapshot{Header: wire.Header{Tick: c[0]}, Index: c[1], Count: c[2]})
	}
	got, newest := l.history(nil, 6)
	want := []TickArrival{TickUnknown, TickUnknown, TickComplete, TickPartial, TickMissing, TickComplete}
	if newest != 5 || !slices.Equal(got, want) {
		t.Errorf("history = %v (newest %d), want %v (newest 5)", got, newest, want)
	}
}
