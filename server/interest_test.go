package server

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
	"tanknet/wire"
)

// seen decodes the last snapshot fp got: the ids of its tanks and its left_view.
func seen(t *testing.T, fp *fakePeer) (ids, left []uint32) {
	t.Helper()
	snap := decodeFrame(fp.snapshot).GetSnapshot()
	for _, ps := range snap.GetPlayers() {
		ids = append(ids, ps.GetPlayerId())
	}
	return ids, snap.GetLeftView()
}

// TestInterest_CrossingTheViewEdge walks a tank away from a watcher and back: it is sent
// within the radius, kept until the radius plus hysteresis, then named in left_view for
// leftRepeat ticks; coming back it is sent again only once inside the radius.
func TestInterest_CrossingTheViewEdge(t *testing.T) {
	w := newTestWorld(t, func(c *Config) { c.Arena, c.ViewRadius = netcode.LargeArena(), 10 })
	watcher, fw := mustJoin(t, w, 0, "watcher")
	walker, fk := mustJoin(t, w, 0, "walker")
	placeAt(w, watcher, netcode.Pose{X: 40, Y: 50}) // open ground between the obstacles of a tile
	at := func(dx float64) {
		placeAt(w, walker, netcode.Pose{X: 40 + dx, Y: 50})
		rec := w.step(time.Duration(w.tick()+1) * tickInterval)
		if !slices.Equal(rec.IDs, []uint32{watcher.tank.ID(), walker.tank.ID()}) || len(rec.Poses) != 2 || rec.Poses[1] != walker.tank.Pose() {
			t.Fatalf("tick record ids %v poses %v, want the whole world (%d, %d) for observers", rec.IDs, rec.Poses, watcher.tank.ID(), walker.tank.ID())
		}
	}
	steps := []struct {
		dx        float64
		sent      bool // walker in the watcher's snapshot
		leftNamed bool // walker in its left_view
	}{
		{5, true, false},
		{10, true, false},   // on the radius
		{13.9, true, false}, // beyond it, within the hysteresis: kept
		{14.1, false, true}, // beyond both: gone, and named
		{12, false, true},   // back within the hysteresis but not the radius: not sent yet
		{10, true, false},   // inside the radius again: sent, no longer named
	}
	for _, s := range steps {
		at(s.dx)
		ids, left := seen(t, fw)
		if got := slices.Contains(ids, walker.tank.ID()); got != s.sent {
			t.Errorf("walker %v away: sent = %v, want %v (snapshot ids %v)", s.dx, got, s.sent, ids)
		}
		if got := slices.Contains(left, walker.tank.ID()); got != s.leftNamed {
			t.Errorf("walker %v away: in left_view = %v, want %v (left_view %v)", s.dx, got, s.leftNamed, left)
		}
		if ids, _ := seen(t, fk); !slices.Contains(ids, walker.tank.ID()) {
			t.Errorf("walker %v away: its own snapshot lacks it (ids %v)", s.dx, ids)
		}
	}
	// Gone for good: named in the snapshots of leftRepeat ticks, then no more.
	for i := range leftRepeat {
		at(30)
		if _, left := seen(t, fw); !slices.Contains(left, walker.tank.ID()) {
			t.Fatalf("snapshot %d after leaving: walker no longer named, want %d snapshots naming it", i+1, leftRepeat)
		}
	}
	at(30)
	if _, left := seen(t, fw); slices.Contains(left, walker.tank.ID()) {
		t.Errorf("walker still named in left_view %d snapshots after leaving, want %d", leftRepeat+1, leftRepeat)
	}
}

// TestInterest_DefaultArenaSendsEveryone: an arena a window shows whole needs no interest
// management; every client gets every tank.
func TestInterest_DefaultArenaSendsEveryone(t *testing.T) {
	w := newTestWorld(t, nil)
	var peers []*fakePeer
	for i := range 8 {
		_, fp := mustJoin(t, w, 0, fmt.Sprint("p", i))
		peers = append(peers, fp)
	}
	w.step(tickInterval)
	for i, fp := range peers {
		if ids, _ := seen(t, fp); len(ids) != 8 {
			t.Errorf("player %d got %d tanks, want all 8", i, len(ids))
		}
	}
	if w.interest != nil {
		t.Error("interest management on for the default arena")
	}
}

// TestInterest_LargeArenaChunks: on the datagram lane, a client's chunks carry its view and
// the left_view in chunk 0 only, and every chunk fits a datagram.
func TestInterest_LargeArenaChunks(t *testing.T) {
	w := newTestWorld(t, func(c *Config) {
		c.Arena, c.MaxPlayers, c.Lane = netcode.LargeArena(), 256, wire.LaneDatagram
	})
	var peers []*fakePeer
	for i := range 256 {
		_, fp := mustJoin(t, w, 0, fmt.Sprint("p", i))
		peers = append(peers, fp)
	}
	w.step(tickInterval)
	total := 0
	for _, fp := range peers {
		for i, c := range fp.chunks {
			if len(c) > transport.MaxDatagramSize {
				t.Fatalf("chunk of %d bytes, more than a datagram (%d)", len(c), transport.MaxDatagramSize)
			}
			if _, err := wire.ReceiveChunk(c, w.tick()); err != nil {
				t.Fatal(err)
			}
			m := new(tankv1.ServerMessage)
			if err := transport.DecodeDatagram(c, m); err != nil {
				t.Fatal(err)
			}
			total += len(m.GetSnapshot().GetPlayers())
			if i > 0 && len(m.GetSnapshot().GetLeftView()) > 0 {
				t.Errorf("chunk %d carries left_view", i)
			}
		}
	}
	if mean := float64(total) / 256; mean >= 128 || mean < 2 {
		t.Errorf("clients got %.1f tanks each out of 256, want their neighbourhood only", mean)
	}
}
