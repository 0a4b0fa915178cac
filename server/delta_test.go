package server

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/wire"
)

// deltaReader rebuilds one client's view of the world from its delta chunks with package
// wire, as a client does: every tank it reads becomes part of that tick's baseline.
type deltaReader struct {
	bases  wire.Baselines
	newest uint32
	read1  map[uint32]bool // ticks read whole
}

// read decodes one tick's chunks and returns the states, or an error for a chunk it cannot
// use or rebuild.
func (r *deltaReader) read(chunks [][]byte) (map[uint32]*tankv1.PlayerState, uint32, error) {
	states := map[uint32]*tankv1.PlayerState{}
	var tick, baseline uint32
	for _, c := range chunks {
		s, err := wire.ReceiveChunk(c, r.newest)
		if err != nil {
			return nil, 0, err
		}
		tick, baseline = s.Tick, s.Baseline
		ok := r.bases.Tanks(s, func(tk wire.Tank) {
			ps := new(tankv1.PlayerState)
			tk.Fill(ps, tick)
			states[tk.ID] = ps
			r.bases.Record(tick, tk)
		})
		if !ok {
			return nil, 0, fmt.Errorf("tick %d: the tanks against baseline %d cannot be rebuilt", tick, baseline)
		}
	}
	r.newest = max(r.newest, tick)
	r.read1[tick] = true
	return states, baseline, nil
}

// TestDelta_RebuildsExactlyWhateverTheBaseline plays a crowd with a watcher whose
// acknowledgements are the previous tick, an old tick, a tick the server never sent it, one
// past its window, or none: whatever the baseline, the rebuilt world is exactly the
// server's, and a tank standing still costs about a byte.
func TestDelta_RebuildsExactlyWhateverTheBaseline(t *testing.T) {
	w := newTestWorld(t, func(c *Config) { c.Lane, c.MaxPlayers = wire.LaneDatagram, 64 })
	watcher, fw := mustJoin(t, w, 0, "watcher")
	var peers []*fakePeer
	for i := range 40 {
		_, fp := mustJoin(t, w, 0, fmt.Sprint("p", i))
		peers = append(peers, fp)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	r := &deltaReader{read1: map[uint32]bool{}}
	used := map[string]int{}
	var idleBytes, idleStates uint64 // on ticks with a baseline
	for tick := uint32(1); tick <= 200; tick++ {
		for i, fp := range peers {
			in := netcode.Input{Turn: 2*rng.Float64() - 1, Throttle: 1}
			if i%3 == 0 {
				in = netcode.Input{} // a third stand still
			}
			fp.inputs = append(fp.inputs, netcode.PendingInput{Tick: tick, Input: in, Duration: netcode.StepInterval})
		}
		kind := []string{"previous", "previous", "old", "never sent", "past the window", "none"}[rng.IntN(6)]
		switch kind {
		case "previous":
			fw.ack = tick - 1
		case "old":
			fw.ack = tick - uint32(2+rng.IntN(20))
		case "never sent":
			fw.ack = tick + 5
		case "past the window":
			fw.ack = tick - deltaWindow
		case "none":
			fw.ack = 0
		}
		for _, fp := range peers { // everyone acknowledges alike, so the byte counts are of deltas
			fp.ack = fw.ack
		}
		if fw.ack > tick || !r.read1[fw.ack] {
			kind = "no usable baseline"
		}
		before := w.stats.snapshot()
		w.step(time.Duration(tick) * tickInterval)
		after := w.stats.snapshot()
		states, baseline, err := r.read(fw.chunks)
		if err != nil {
			t.Fatalf("ack %d (%s): %v", fw.ack, kind, err)
		}
		if want := fw.ack; baseline != 0 && baseline != want {
			t.Fatalf("tick %d: baseline %d, want the acknowledged %d", tick, baseline, want)
		}
		if baseline != 0 {
			used[kind]++
			idleBytes += after.StateBytesIdle - before.StateBytesIdle
			idleStates += after.StatesIdle - before.StatesIdle
		}
		for _, p := range w.players() {
			ps := states[p.tank.ID()]
			if ps == nil {
				t.Fatalf("tick %d: tank %d missing from the watcher's snapshot", tick, p.tank.ID())
			}
			if got := wire.StateFromProto(ps); got.Pose != p.tank.Pose() || got.Tick != w.tick() {
				t.Fatalf("tick %d (baseline %d, %s): tank %d rebuilt at %v tick %d, server has %v", tick, baseline, kind, p.tank.ID(), got.Pose, got.Tick, p.tank.Pose())
			}
			if p == watcher && ps.GetAcknowledgedMoveTick() != p.tank.Ack() {
				t.Fatalf("tick %d: own ack %d, want %d", tick, ps.GetAcknowledgedMoveTick(), p.tank.Ack())
			}
		}
	}
	if used["previous"] == 0 || used["old"] == 0 {
		t.Errorf("baselines used: %v, want the previous tick and old ticks among them", used)
	}
	idle := float64(idleBytes) / float64(idleStates)
	t.Logf("a tank standing still costs %.2f bytes against a baseline; baselines used %v", idle, used)
	if idle > 2.5 {
		t.Errorf("a tank standing still costs %.2f bytes a snapshot on average, want about one", idle)
	}
}
