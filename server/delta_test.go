package server

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
)

// deltaReader rebuilds one client's view of the world from its delta chunks, independently
// of package client: what a client in another language would write from PROTOCOL.md.
type deltaReader struct {
	seen map[uint32]map[uint32]*tankv1.PlayerState // tick -> id -> state
}

// read decodes one tick's chunks and returns the states, or an error for a chunk it cannot
// rebuild; rebuilt ticks become baselines.
func (r *deltaReader) read(chunks [][]byte) (map[uint32]*tankv1.PlayerState, uint32, error) {
	states := map[uint32]*tankv1.PlayerState{}
	var tick, baseline uint32
	for _, c := range chunks {
		m := new(tankv1.ServerMessage)
		if err := transport.DecodeDatagram(c, m); err != nil {
			return nil, 0, err
		}
		s := m.GetSnapshot()
		tick, baseline = s.GetServerTick(), s.GetBaselineTick()
		for _, ps := range s.GetPlayers() {
			states[ps.GetPlayerId()] = ps
		}
		base := r.seen[baseline]
		if baseline != 0 && base == nil {
			return nil, 0, fmt.Errorf("tick %d: baseline %d was never received", tick, baseline)
		}
		id := uint32(0)
		for _, gap := range s.GetUnchanged() {
			id += gap
			b, ok := base[id]
			if !ok {
				return nil, 0, fmt.Errorf("tick %d: unchanged tank %d not in baseline %d", tick, id, baseline)
			}
			ps := &tankv1.PlayerState{}
			*ps = tankv1.PlayerState{PlayerId: id, Tick: tick, AcknowledgedMoveTick: b.AcknowledgedMoveTick,
				GridX: b.GridX, GridY: b.GridY, GridHeading: b.GridHeading, Health: b.Health, Destroyed: b.Destroyed,
				Kills: b.Kills, Deaths: b.Deaths, SpawnProtected: b.SpawnProtected}
			states[id] = ps
		}
		mv := s.GetMoved()
		if len(mv)%4 != 0 {
			return nil, 0, fmt.Errorf("tick %d: moved has %d numbers", tick, len(mv))
		}
		id = 0
		for i := 0; i < len(mv); i += 4 {
			id += uint32(mv[i])
			b, ok := base[id]
			if !ok {
				return nil, 0, fmt.Errorf("tick %d: moved tank %d not in baseline %d", tick, id, baseline)
			}
			states[id] = &tankv1.PlayerState{PlayerId: id, Tick: tick, AcknowledgedMoveTick: b.AcknowledgedMoveTick,
				GridX: uint32(int64(b.GridX) + int64(mv[i+1])), GridY: uint32(int64(b.GridY) + int64(mv[i+2])),
				GridHeading: b.GridHeading + mv[i+3], Health: b.Health, Destroyed: b.Destroyed,
				Kills: b.Kills, Deaths: b.Deaths, SpawnProtected: b.SpawnProtected}
		}
	}
	r.seen[tick] = states
	return states, baseline, nil
}

// TestDelta_RebuildsExactlyWhateverTheBaseline plays a crowd with a watcher whose
// acknowledgements are the previous tick, an old tick, a tick the server never sent it, one
// past its window, or none: whatever the baseline, the rebuilt world is exactly the
// server's, and a tank standing still costs about a byte.
func TestDelta_RebuildsExactlyWhateverTheBaseline(t *testing.T) {
	w := newTestWorld(t, func(c *Config) { c.Lane, c.MaxPlayers = transport.LaneDatagram, 64 })
	watcher, fw := mustJoin(t, w, 0, "watcher")
	var peers []*fakePeer
	for i := range 40 {
		_, fp := mustJoin(t, w, 0, fmt.Sprint("p", i))
		peers = append(peers, fp)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	r := &deltaReader{seen: map[uint32]map[uint32]*tankv1.PlayerState{}}
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
		if fw.ack > tick || r.seen[fw.ack] == nil {
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
		for _, p := range w.players {
			ps := states[p.id]
			if ps == nil {
				t.Fatalf("tick %d: tank %d missing from the watcher's snapshot", tick, p.id)
			}
			if got := transport.StateFromProto(ps); got.Pose != p.pose || got.Tick != w.tick {
				t.Fatalf("tick %d (baseline %d, %s): tank %d rebuilt at %v tick %d, server has %v", tick, baseline, kind, p.id, got.Pose, got.Tick, p.pose)
			}
			if p == watcher && ps.GetAcknowledgedMoveTick() != p.ack {
				t.Fatalf("tick %d: own ack %d, want %d", tick, ps.GetAcknowledgedMoveTick(), p.ack)
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
