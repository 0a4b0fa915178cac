package server

import (
	"fmt"
	"math"
	"testing"
	"time"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
	"tanknet/wire"
)

// mergeChunks decodes one tick's chunk datagrams and checks they form one snapshot: each a
// valid datagram of at most MaxDatagramSize, all of the same tick, indexes 0..n-1 in order,
// count n. It returns the players of all chunks together.
func mergeChunks(chunks [][]byte) (*tankv1.Snapshot, error) {
	out := &tankv1.Snapshot{}
	for i, c := range chunks {
		if _, err := wire.ReceiveChunk(c, math.MaxUint32); err != nil { // any tick: the test checks them below
			return nil, fmt.Errorf("chunk %d: %v", i, err)
		}
		var m tankv1.ServerMessage
		if err := transport.DecodeDatagram(c, &m); err != nil {
			return nil, fmt.Errorf("chunk %d: %v", i, err)
		}
		s := m.GetSnapshot()
		switch {
		case s == nil:
			return nil, fmt.Errorf("chunk %d is %T, not a Snapshot", i, m.GetKind())
		case s.GetChunkIndex() != uint32(i) || s.GetChunkCount() != uint32(len(chunks)):
			return nil, fmt.Errorf("chunk %d says %d of %d, want %d of %d", i, s.GetChunkIndex(), s.GetChunkCount(), i, len(chunks))
		case i > 0 && s.GetServerTick() != out.GetServerTick():
			return nil, fmt.Errorf("chunk %d is of tick %d, chunk 0 of %d", i, s.GetServerTick(), out.GetServerTick())
		}
		out.ServerTick = s.GetServerTick()
		for _, ps := range s.GetPlayers() {
			if ps.GetTick() != s.GetServerTick() {
				return nil, fmt.Errorf("chunk %d: player %d of tick %d in a snapshot of tick %d", i, ps.GetPlayerId(), ps.GetTick(), s.GetServerTick())
			}
		}
		out.Players = append(out.Players, s.GetPlayers()...)
	}
	return out, nil
}

func TestChunks_256PlayersSplitIntoFullDatagramsInIDOrder(t *testing.T) {
	w := newTestWorld(t, func(c *Config) { c.MaxPlayers, c.Lane = 256, wire.LaneDatagram })
	peers := make([]*fakePeer, 256)
	for i := range peers {
		_, peers[i] = mustJoin(t, w, 0, fmt.Sprintf("p%d", i))
	}
	w.step(netcode.StepInterval)
	chunks := peers[0].chunks
	if len(chunks) < 2 || len(chunks) > wire.MaxSnapshotChunks {
		t.Fatalf("256 players went into %d chunks, want between 2 and %d", len(chunks), wire.MaxSnapshotChunks)
	}
	for i, c := range chunks {
		if len(c) > transport.MaxDatagramSize {
			t.Errorf("chunk %d is %d bytes, over the %d a datagram carries", i, len(c), transport.MaxDatagramSize)
		}
		if i < len(chunks)-1 && len(c) < transport.MaxDatagramSize*9/10 {
			t.Errorf("chunk %d is only %d bytes: chunks should be nearly full", i, len(c))
		}
	}
	snap, err := mergeChunks(chunks)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.GetPlayers()) != 256 {
		t.Fatalf("chunks hold %d players, want 256", len(snap.GetPlayers()))
	}
	for i, ps := range snap.GetPlayers() {
		if ps.GetPlayerId() != uint32(i+1) || ps.GetTick() != 1 {
			t.Fatalf("entry %d = player %d tick %d, want player %d tick 1", i, ps.GetPlayerId(), ps.GetTick(), i+1)
		}
	}
	if peers[0].snapshot != nil {
		t.Error("the datagram lane also offered a stream snapshot")
	}
}

func TestChunks_FewPlayersFitOneChunk(t *testing.T) {
	w := newTestWorld(t, func(c *Config) { c.Lane = wire.LaneDatagram })
	_, fp := mustJoin(t, w, 0, "solo")
	mustJoin(t, w, 0, "duo")
	w.step(netcode.StepInterval)
	if len(fp.chunks) != 1 {
		t.Fatalf("2 players went into %d chunks, want 1", len(fp.chunks))
	}
	snap, err := mergeChunks(fp.chunks)
	if err != nil || len(snap.GetPlayers()) != 2 {
		t.Fatalf("merge = %v, %v; want both players", snap, err)
	}
}

// datagramWorld is a datagram-lane world with one player, for the input tests below.
func datagramWorld(t *testing.T) (*game, *player, *fakePeer) {
	t.Helper()
	w := newTestWorld(t, func(c *Config) { c.Lane = wire.LaneDatagram })
	p, fp := mustJoin(t, w, 0, "driver")
	return w, p, fp
}

func move(tick uint32) netcode.PendingInput {
	return netcode.PendingInput{Tick: tick, Input: netcode.Input{Turn: 0.3, Throttle: 1}, Duration: netcode.StepInterval}
}

func moves(from, to uint32) []netcode.PendingInput {
	var out []netcode.PendingInput
	for tick := from; tick <= to; tick++ {
		out = append(out, move(tick))
	}
	return out
}

// runTicks steps w n times from tick *now and returns every applied move tick, in order.
func runTicks(w *game, now *time.Duration, n int) []uint32 {
	var got []uint32
	for range n {
		*now += netcode.StepInterval
		for _, a := range w.step(*now).Applied {
			got = append(got, a.MoveTick)
		}
	}
	return got
}

func TestDatagramInputs_ApplyBeforeTheirStreamCopyAndOnlyOnce(t *testing.T) {
	w, p, fp := datagramWorld(t)
	var now time.Duration
	fp.copies = append(fp.copies, moves(1, 3)...) // the stream copies are still on their way
	got := runTicks(w, &now, 1)
	fp.inputs = append(fp.inputs, moves(1, 3)...) // now they come, late
	fp.copies = append(fp.copies, moves(2, 4)...) // and the next batch repeats 2 and 3
	got = append(got, runTicks(w, &now, 3)...)
	if want := []uint32{1, 2, 3, 4}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("applied move ticks %v, want %v", got, want)
	}
	st := w.stats.snapshot()
	if st.InputsEarly != 4 || st.InputsRedundant != 5 || st.InputsStale != 0 {
		t.Errorf("stats early %d redundant %d stale %d, want 4, 5 (3 stream copies, 2 repeats), 0",
			st.InputsEarly, st.InputsRedundant, st.InputsStale)
	}
	if p.tank.Ack() != 4 {
		t.Errorf("ack = %d, want 4", p.tank.Ack())
	}
}

func TestDatagramInputs_PastAGapWaitForTheStream(t *testing.T) {
	w, p, fp := datagramWorld(t)
	var now time.Duration
	fp.inputs = append(fp.inputs, moves(1, 2)...)
	got := runTicks(w, &now, 1)
	// A loss burst longer than the redundancy window: ticks 3..14 never came as datagrams,
	// and the newest batch starts at 15. Taking it would skip 3..14.
	fp.copies = append(fp.copies, moves(15, 24)...)
	got = append(got, runTicks(w, &now, 1)...)
	if p.tank.LastQueued() != 2 {
		t.Fatalf("after a batch past a gap, last queued tick %d, want still 2", p.tank.LastQueued())
	}
	fp.inputs = append(fp.inputs, moves(3, 24)...) // the stream brings every input
	got = append(got, runTicks(w, &now, 30)...)    // wall time bounds the catch-up: give it time
	var want []uint32
	for tick := uint32(1); tick <= 24; tick++ {
		want = append(want, tick)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("applied move ticks %v, want 1..24 once each, in order", got)
	}
	if st := w.stats.snapshot(); st.InputsPastGap != 10 {
		t.Errorf("InputsPastGap = %d, want 10", st.InputsPastGap)
	}
}

func TestDatagramInputs_BadCopiesAreDroppedNotFatal(t *testing.T) {
	w, p, fp := datagramWorld(t)
	var now time.Duration
	bad := move(1)
	bad.Input.Turn = bad.Input.Turn * 0 / 0 // NaN
	far := move(1_000_000)
	fp.copies = append(fp.copies, bad, far)
	runTicks(w, &now, 1)
	if fp.kicked != "" || len(w.players()) != 1 {
		t.Fatalf("a bad datagram input dropped the player: %q", fp.kicked)
	}
	if st := w.stats.snapshot(); st.DatagramsBad != 1 || st.InputsPastGap != 1 {
		t.Errorf("DatagramsBad %d, InputsPastGap %d; want 1 and 1", st.DatagramsBad, st.InputsPastGap)
	}
	fp.inputs = append(fp.inputs, move(1))
	if got := runTicks(w, &now, 1); len(got) != 1 || p.tank.Ack() != 1 {
		t.Errorf("the stream copy of tick 1 was not applied after its bad datagram copy: %v", got)
	}
}

func TestTickRecord_StarvedWhenNoInputIsWaiting(t *testing.T) {
	w, _, fp := datagramWorld(t)
	var now time.Duration
	now += netcode.StepInterval
	if rec := w.step(now); len(rec.Starved) != 0 {
		t.Errorf("a player that never sent an input counts as starved: %v", rec.Starved)
	}
	fp.inputs = append(fp.inputs, move(1))
	now += netcode.StepInterval
	w.step(now)
	now += netcode.StepInterval
	if rec := w.step(now); len(rec.Starved) != 1 {
		t.Errorf("Starved = %v after the only input was applied, want the player", rec.Starved)
	}
}
