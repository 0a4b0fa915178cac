package client

import (
	"testing"
	"time"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
	"tanknet/wire"
)

// datagramGame is an offline Game on the datagram lane whose roster knows players 1..6
// (1 is us).
func datagramGame(t *testing.T) (*Game, *Session, time.Time) {
	t.Helper()
	sess := &Session{welcome: wire.Welcome{PlayerID: 1, Arena: netcode.DefaultArena(), Lane: wire.LaneDatagram}}
	start := time.Unix(1000, 0)
	g := NewGame(sess, DefaultOptions(), start)
	g.uplink.lastPing = start.Add(time.Hour)
	for id := uint32(1); id <= 6; id++ {
		g.others.names[id] = "p"
	}
	return g, sess, start
}

// chunkMsg is chunk index of count of tick, holding players ids, each at x = tick.
func chunkMsg(tick, index, count uint32, ids ...uint32) *tankv1.ServerMessage {
	snap := &tankv1.Snapshot{ServerTick: tick, ChunkIndex: index, ChunkCount: count}
	for _, id := range ids {
		snap.Players = append(snap.Players, wire.StateToProto(id, netcode.State{Tick: tick, Pose: netcode.Pose{X: float64(tick), Y: float64(id)}}))
	}
	return &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Snapshot{Snapshot: snap}}
}

// feed delivers msgs as datagrams at time at and runs one Update.
func feed(t *testing.T, g *Game, sess *Session, at time.Time, msgs ...*tankv1.ServerMessage) {
	t.Helper()
	for _, m := range msgs {
		sess.queue = append(sess.queue, Received{At: at, Msg: decoded(m), Datagram: true})
	}
	g.pace.last = at
	if err := g.Update(at, netcode.Input{}); err != nil {
		t.Fatal(err)
	}
}

func newestTick(t *testing.T, g *Game, id uint32) uint32 {
	t.Helper()
	rm := g.Remotes()[id]
	if rm == nil {
		return 0
	}
	st, _ := rm.Interp.Newest()
	return st.Tick
}

func TestChunks_ALostChunkSkipsOnlyItsTanks(t *testing.T) {
	g, sess, start := datagramGame(t)
	feed(t, g, sess, start, chunkMsg(1, 0, 2, 1, 2, 3), chunkMsg(1, 1, 2, 4, 5, 6))
	// Tick 2: chunk 1 (players 4..6) is lost.
	feed(t, g, sess, start.Add(50*time.Millisecond), chunkMsg(2, 0, 2, 1, 2, 3))
	for id, want := range map[uint32]uint32{2: 2, 3: 2, 4: 1, 5: 1, 6: 1} {
		if got := newestTick(t, g, id); got != want {
			t.Errorf("player %d: newest tick %d, want %d", id, got, want)
		}
	}
	if g.Local() == nil || g.Local().Counters().Reconciliations != 1 {
		t.Errorf("own state of tick 2 not reconciled: %+v", g.Local())
	}
	// Tick 3 whole again: everyone moves on, and tick 2's gap is only theirs.
	feed(t, g, sess, start.Add(100*time.Millisecond), chunkMsg(3, 1, 2, 4, 5, 6), chunkMsg(3, 0, 2, 1, 2, 3))
	for id := uint32(2); id <= 6; id++ {
		if got := newestTick(t, g, id); got != 3 {
			t.Errorf("player %d: newest tick %d after tick 3, want 3", id, got)
		}
	}
	if tick, mask := g.lanes.arrivals.ack(); tick != 3 || mask != 0b10 {
		t.Errorf("ack = %d, %b; want tick 3 complete, 2 not, 1 complete (mask 10)", tick, mask)
	}
}

func TestChunks_DuplicatedOrReorderedChunksChangeNothing(t *testing.T) {
	run := func(order [][]*tankv1.ServerMessage) (map[uint32]netcode.State, Stats) {
		t.Helper()
		g, sess, start := datagramGame(t)
		for i, msgs := range order {
			feed(t, g, sess, start.Add(time.Duration(i)*50*time.Millisecond), msgs...)
		}
		out := map[uint32]netcode.State{}
		for id, rm := range g.Remotes() {
			out[id], _ = rm.Interp.Newest()
			if c := rm.Interp.Counters(); c.Samples > 3 {
				t.Errorf("player %d: %d samples accepted, want at most ticks 1..3 once each", id, c.Samples)
			}
		}
		return out, g.Stats()
	}
	a0, a1 := chunkMsg(1, 0, 2, 1, 2, 3), chunkMsg(1, 1, 2, 4, 5, 6)
	b0, b1 := chunkMsg(2, 0, 2, 1, 2, 3), chunkMsg(2, 1, 2, 4, 5, 6)
	c0, c1 := chunkMsg(3, 0, 2, 1, 2, 3), chunkMsg(3, 1, 2, 4, 5, 6)
	clean, cleanStats := run([][]*tankv1.ServerMessage{{a0, a1}, {b0, b1}, {c0, c1}})
	messy, messyStats := run([][]*tankv1.ServerMessage{{a1, a0, a1}, {b1, c0}, {b0, c1, c1, b1, a0}})
	if len(clean) != 5 {
		t.Fatalf("%d remotes, want 5", len(clean))
	}
	for id, st := range clean {
		if messy[id] != st {
			t.Errorf("player %d: newest %+v after duplicates and reordering, %+v without", id, messy[id], st)
		}
	}
	if cleanStats.Chunks != 6 || messyStats.Chunks != 6 || messyStats.SnapshotsLost != 0 {
		t.Errorf("chunks used %d and %d, lost %d; want 6, 6 and 0", cleanStats.Chunks, messyStats.Chunks, messyStats.SnapshotsLost)
	}
}

func TestChunks_UnknownPlayersWaitForTheRoster(t *testing.T) {
	g, sess, start := datagramGame(t)
	feed(t, g, sess, start, chunkMsg(1, 0, 1, 1, 2, 9))
	if g.Remotes()[9] != nil || g.Stats().UnknownStates != 1 {
		t.Errorf("a player the roster never announced got a remote (unknown states %d)", g.Stats().UnknownStates)
	}
	if g.Remotes()[2] == nil {
		t.Error("a known player in the same chunk was skipped")
	}
}

func TestArrivals_CountsLostTicksOnceSettled(t *testing.T) {
	var a arrivals
	for tick := uint32(1); tick <= 200; tick++ {
		if tick%10 == 0 {
			continue // every tenth snapshot lost
		}
		a.chunk(time.Duration(tick)*netcode.StepInterval, tick, 0, 1)
	}
	// Ticks up to 189 are settled (the last 10 might still come): 18 losses.
	if got := a.lost(); got != 18 {
		t.Errorf("lost() = %d, want 18", got)
	}
	if a.chunk(0, 199, 0, 1) {
		t.Error("a duplicate of tick 199 was taken")
	}
	if !a.chunk(0, 180, 0, 1) || a.lost() != 17 {
		t.Errorf("a late tick 180 inside the window: taken and lost() = %d, want 17", a.lost())
	}
	if a.chunk(0, 120, 0, 1) { // never seen, so refused only as too old
		t.Error("tick 120, 80 behind the newest, was taken")
	}
}

func TestArrivals_HOLStallIsABurstAfterAGap(t *testing.T) {
	a := arrivals{detectHOL: true}
	ms := time.Millisecond
	at := time.Duration(0)
	tick := uint32(0)
	arrive := func(d time.Duration) {
		at += d
		tick++
		a.chunk(at, tick, 0, 0)
	}
	for range 10 {
		arrive(50 * ms)
	}
	arrive(120 * ms) // jitter: late, then the next on time
	arrive(30 * ms)
	arrive(50 * ms)
	arrive(110 * ms) // late, and one more right behind it: two is jitter, not a queue
	arrive(1 * ms)
	arrive(49 * ms)
	if a.stalls != 0 {
		t.Fatalf("jitter counted as %d HOL stalls", a.stalls)
	}
	arrive(180 * ms) // a retransmission: a gap, then three snapshots at once
	arrive(1 * ms)
	arrive(1 * ms)
	arrive(1 * ms)
	arrive(50 * ms)
	if a.stalls != 1 || len(a.stallLog) != 1 || a.stallLog[0] != 180*ms {
		t.Errorf("stalls %d, log %v; want one stall of 180ms", a.stalls, a.stallLog)
	}
	off := arrivals{}
	off.chunk(0, 1, 0, 0)
	off.chunk(200*ms, 2, 0, 0)
	off.chunk(200*ms, 3, 0, 0)
	off.chunk(200*ms, 4, 0, 0)
	if off.stalls != 0 {
		t.Error("HOL detection ran on the datagram lane")
	}
}

func TestArrivalsSeen(t *testing.T) {
	var a arrivals
	if known, _, _ := a.seen(5); known {
		t.Error("seen before any arrival reports known")
	}
	a.chunk(0, 10, 0, 1)
	a.chunk(0, 12, 0, 2) // half of tick 12
	a.chunk(0, 13, 0, 1)
	tests := []struct {
		tick                 uint32
		known, any, complete bool
	}{
		{9, false, false, false}, // before the first tick seen
		{10, true, true, true},
		{11, true, false, false}, // missing
		{12, true, true, false},  // partial
		{13, true, true, true},
		{14, false, false, false}, // after the newest
	}
	for _, tt := range tests {
		k, an, c := a.seen(tt.tick)
		if k != tt.known || an != tt.any || c != tt.complete {
			t.Errorf("seen(%d) = %v %v %v, want %v %v %v", tt.tick, k, an, c, tt.known, tt.any, tt.complete)
		}
	}
}

func TestSession_ChunksCannotCrowdOutTheStream(t *testing.T) {
	sess := &Session{}
	chunk, err := transport.AppendDatagram(nil, chunkMsg(1, 0, 1, 2))
	if err != nil {
		t.Fatal(err)
	}
	for range maxQueued {
		sess.onDatagram(chunk)
	}
	if _, dropped := sess.DatagramStats(); dropped != maxQueued-maxQueued/2 {
		t.Errorf("%d chunks dropped of %d, want all beyond half the queue", dropped, maxQueued)
	}
	for i := range maxQueued - maxQueued/2 {
		if !sess.push(Received{Msg: decoded(chunkMsg(1, 0, 1, 2))}) {
			t.Fatalf("stream message %d refused behind a queue full of chunks", i)
		}
	}
}

// TestSession_FullQueueDropsOldSnapshotsNotTheSession: a window that stalls under load while
// 3 queues' worth of snapshots arrive keeps the session; the oldest snapshots go (counted),
// the newest and every message that is not a snapshot (a pong here) stay, in order.
func TestSession_FullQueueDropsOldSnapshotsNotTheSession(t *testing.T) {
	sess := &Session{}
	pong := &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Pong{Pong: &tankv1.Pong{ClientTimeUs: 7}}}
	if !sess.push(Received{Msg: decoded(pong)}) {
		t.Fatal("pong refused by an empty queue")
	}
	const sent = 3 * maxQueued
	for tick := uint32(1); tick <= sent; tick++ {
		if !sess.push(Received{Msg: decoded(chunkMsg(tick, 0, 1, 2))}) {
			t.Fatalf("snapshot %d refused: a full queue should drop an old snapshot instead", tick)
		}
	}
	got, err := sess.Drain(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != maxQueued {
		t.Fatalf("%d messages queued, want %d", len(got), maxQueued)
	}
	if _, ok := got[0].Msg.(wire.Pong); !ok {
		t.Errorf("first queued message is %T, want the pong kept", got[0].Msg)
	}
	first, _ := got[1].Msg.(*wire.Snapshot)
	last, _ := got[len(got)-1].Msg.(*wire.Snapshot)
	if first == nil || last == nil || first.Tick != sent-maxQueued+2 || last.Tick != sent {
		t.Errorf("queued snapshots run from %+v to %+v, want the newest: ticks %d to %d", first, last, sent-maxQueued+2, sent)
	}
	if d := sess.StaleDropped(); d != sent-(maxQueued-1) {
		t.Errorf("StaleDropped() = %d, want %d", d, sent-(maxQueued-1))
	}
}
