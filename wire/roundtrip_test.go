package wire

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
)

// The round-trip property: whatever the tanks and the baseline, what the sender encodes the
// receiver decodes to the same tanks, whole or against a baseline, from chunks arriving in
// any order; and an input batch decodes to the inputs encoded.

// randomTank is a tank with a random pose on a realistic grid (an arena of up to 16384
// units) and random combat state.
func randomTank(rng *rand.Rand, id uint32) Tank {
	return Tank{ID: id,
		Grid: netcode.GridPose{X: rng.Uint32N(1 << 24), Y: rng.Uint32N(1 << 24), Heading: rng.Int32N(netcode.HeadingSteps+1) - netcode.HeadingSteps/2},
		Ack:  rng.Uint32(),
		Combat: Combat{Health: rng.Uint32N(101), Kills: rng.Uint32N(1000), Deaths: rng.Uint32N(1000),
			Destroyed: rng.IntN(8) == 0, SpawnProtected: rng.IntN(8) == 0}}
}

// evolve returns tick's tanks from prev's: most stay, some stand still, some move (a step
// or a long way), some change combat state or only their ack; some leave and new ones come.
// The result is in id order.
func evolve(rng *rand.Rand, prev []Tank, nextID *uint32, maxTanks int) []Tank {
	var out []Tank
	for _, t := range prev {
		switch r := rng.IntN(20); {
		case r == 0:
			continue // left
		case r < 8: // stands still
		case r < 15:
			t.Grid.X = uint32(max(0, int64(t.Grid.X)+int64(rng.IntN(2001))-1000))
			t.Grid.Y = uint32(max(0, int64(t.Grid.Y)+int64(rng.IntN(2001))-1000))
			t.Grid.Heading = rng.Int32N(netcode.HeadingSteps+1) - netcode.HeadingSteps/2
		case r < 16:
			t.Grid = randomTank(rng, t.ID).Grid // teleported (a respawn)
		case r < 18:
			t.Combat.Health = rng.Uint32N(101)
			t.Combat.Destroyed = !t.Combat.Destroyed
		default:
			t.Ack++
		}
		out = append(out, t)
	}
	for n := rng.IntN(4); n > 0 && len(out) < maxTanks; n-- {
		*nextID += 1 + rng.Uint32N(300) // ids with gaps of every size
		out = append(out, randomTank(rng, *nextID))
	}
	return out
}

// sender is one client's server side of the format: it encodes tanks once a tick and keeps
// what it sent by tick, as the server does.
type sender struct {
	enc   EntryEncoder
	delta DeltaBuilder
	sent  map[uint32][]Tank
}

// send encodes tanks (in id order) of tick against baseline (0: none) with left, own always
// whole, and returns the chunk datagrams.
func (s *sender) send(t *testing.T, tanks []Tank, tick, baseline, own uint32, left []uint32) [][]byte {
	t.Helper()
	base := s.sent[baseline]
	s.delta.Reset(Header{Tick: tick, Left: left}, baseline)
	for _, tk := range tanks {
		e, err := s.enc.Append(nil, tk, tick)
		if err != nil {
			t.Fatal(err)
		}
		i, ok := slices.BinarySearchFunc(base, tk.ID, func(b Tank, id uint32) int { return int(int64(b.ID) - int64(id)) })
		var old Tank
		if ok {
			old = base[i]
		}
		s.delta.Add(e, tk, old, ok && tk.ID != own)
	}
	chunks, err := s.delta.Datagrams()
	if err != nil {
		t.Fatal(err)
	}
	s.sent[tick] = tanks
	return chunks
}

// receive decodes a tick's chunks in the order given, as a client does (recording every tank
// as a baseline), and returns the tanks by id, the left_view, and whether every chunk could
// be rebuilt.
func receive(t *testing.T, bases *Baselines, chunks [][]byte, newest uint32) (map[uint32]Tank, []uint32, bool) {
	t.Helper()
	got := map[uint32]Tank{}
	var left []uint32
	whole := true
	indexes := map[uint32]bool{}
	for _, c := range chunks {
		if len(c) > transport.MaxDatagramSize {
			t.Fatalf("chunk of %d bytes, over a datagram's %d", len(c), transport.MaxDatagramSize)
		}
		snap, err := ReceiveChunk(c, newest)
		if err != nil {
			t.Fatalf("ReceiveChunk: %v", err)
		}
		if indexes[snap.Index] || snap.Count != uint32(len(chunks)) {
			t.Fatalf("chunk %d of %d among %d chunks (seen %v)", snap.Index, snap.Count, len(chunks), indexes)
		}
		indexes[snap.Index] = true
		left = append(left, snap.Left...)
		whole = bases.Tanks(snap, func(tk Tank) {
			if _, dup := got[tk.ID]; dup {
				t.Fatalf("tank %d came twice", tk.ID)
			}
			got[tk.ID] = tk
			bases.Record(snap.Tick, tk)
		}) && whole
	}
	return got, left, whole
}

// want is what the receiver should have of tanks sent against base (the sender's record)
// when it had had (its own record of the baseline tick): every tank exactly, except that one
// described against the baseline keeps the ack the receiver had, which a delta does not
// carry.
func want(tanks, base []Tank, had map[uint32]Tank, own uint32) map[uint32]Tank {
	out := map[uint32]Tank{}
	for _, tk := range tanks {
		i, ok := slices.BinarySearchFunc(base, tk.ID, func(b Tank, id uint32) int { return int(int64(b.ID) - int64(id)) })
		if ok && tk.ID != own && base[i].Combat == tk.Combat {
			tk.Ack = had[tk.ID].Ack
		}
		out[tk.ID] = tk
	}
	return out
}

// TestRoundTrip_RandomWorldsAndBaselines plays random worlds tick by tick. Each tick goes
// against a random baseline the receiver has (the previous tick, an older one, or none),
// its chunks arrive shuffled, and the receiver must rebuild exactly the sender's tanks
// (a tank sent against the baseline keeping the baseline's ack, which a delta does not
// carry). An independent reader written from docs/PROTOCOL.md agrees.
func TestRoundTrip_RandomWorldsAndBaselines(t *testing.T) {
	deltas, multi := 0, 0
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 7))
		s := &sender{sent: map[uint32][]Tank{}}
		var bases Baselines
		received := map[uint32]map[uint32]Tank{}
		indie := &independentReader{seen: map[uint32]map[uint32]*tankv1.PlayerState{}}
		maxTanks := []int{1, 8, 64, 400}[seed%4]
		var nextID uint32
		var tanks []Tank
		for range 1 + rng.IntN(maxTanks) {
			nextID += 1 + rng.Uint32N(300)
			tanks = append(tanks, randomTank(rng, nextID))
		}
		tick := rng.Uint32N(1 << 30)
		for range 25 {
			tick++
			tanks = evolve(rng, tanks, &nextID, maxTanks)
			if len(tanks) == 0 {
				continue
			}
			own := tanks[rng.IntN(len(tanks))].ID
			var baseline uint32
			if back := uint32(1 + rng.IntN(31)); rng.IntN(4) > 0 && s.sent[tick-back] != nil {
				baseline = tick - back
			}
			var left []uint32
			for n := rng.IntN(3); n > 0; n-- {
				left = append(left, 1+rng.Uint32N(nextID+10))
			}
			chunks := s.send(t, tanks, tick, baseline, own, left)
			if len(chunks) > 1 {
				multi++
			}
			if baseline != 0 {
				deltas++
			}
			shuffled := slices.Clone(chunks)
			rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			got, gotLeft, whole := receive(t, &bases, shuffled, tick-1)
			if !whole {
				t.Fatalf("seed %d tick %d: a chunk against baseline %d could not be rebuilt", seed, tick, baseline)
			}
			received[tick] = got
			if w := want(tanks, s.sent[baseline], received[baseline], own); !maps.Equal(got, w) {
				t.Fatalf("seed %d tick %d against %d: rebuilt\n%v\nwant\n%v", seed, tick, baseline, got, w)
			}
			if fmt.Sprint(gotLeft) != fmt.Sprint(left) && !(len(left) == 0 && len(gotLeft) == 0) {
				t.Fatalf("seed %d tick %d: left_view %v, want %v", seed, tick, gotLeft, left)
			}
			states, err := indie.read(shuffled)
			if err != nil {
				t.Fatalf("seed %d tick %d: independent reader: %v", seed, tick, err)
			}
			for id, tk := range got {
				var ps tankv1.PlayerState
				tk.Fill(&ps, tick)
				if ind := states[id]; ind == nil || TankFromProto(ind) != tk {
					t.Fatalf("seed %d tick %d: tank %d read independently as %v, wire says %v", seed, tick, id, ind, tk)
				}
			}
		}
	}
	t.Logf("%d ticks against a baseline, %d cut into several chunks", deltas, multi)
	if deltas < 100 || multi < 20 {
		t.Errorf("only %d ticks against a baseline and %d cut into several chunks: the test lost its reach", deltas, multi)
	}
}

// TestRoundTrip_StreamFrame: the stream form of a random snapshot reads back, through the
// stream's own frame reader, as its tanks and left_view.
func TestRoundTrip_StreamFrame(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := range 40 {
		var nextID uint32
		tanks := evolve(rng, nil, &nextID, n*7)
		for range n {
			tanks = evolve(rng, tanks, &nextID, n*7)
		}
		tick := 1 + rng.Uint32()
		var enc EntryEncoder
		var entries [][]byte
		for _, tk := range tanks {
			e, err := enc.Append(nil, tk, tick)
			if err != nil {
				t.Fatal(err)
			}
			entries = append(entries, e)
		}
		left := []uint32{rng.Uint32(), 1}[:rng.IntN(3)]
		frame := StreamFrame(Header{Tick: tick, Left: left}, entries)
		var m tankv1.ServerMessage
		if err := transport.NewFrameReader(bytes.NewReader(frame)).Read(&m); err != nil {
			t.Fatalf("%d tanks: %v", len(tanks), err)
		}
		snap := m.GetSnapshot()
		if snap.GetServerTick() != tick || len(snap.GetPlayers()) != len(tanks) || fmt.Sprint(snap.GetLeftView()) != fmt.Sprint(left) && len(left) > 0 {
			t.Fatalf("%d tanks of tick %d, left %v: read %d of tick %d, left %v", len(tanks), tick, left, len(snap.GetPlayers()), snap.GetServerTick(), snap.GetLeftView())
		}
		for i, ps := range snap.GetPlayers() {
			if got := TankFromProto(ps); got != tanks[i] || ps.GetTick() != tick {
				t.Fatalf("tank %d read as %v of tick %d, want %v", i, got, ps.GetTick(), tanks[i])
			}
		}
	}
}

// TestRoundTrip_InputBatch: random inputs (any floats, whole-millisecond durations) and
// acknowledgements come back exactly.
func TestRoundTrip_InputBatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var enc BatchEncoder
	var r BatchReader // reused: a read keeps nothing of the one before
	for range 500 {
		in := make([]netcode.PendingInput, rng.IntN(MaxBatchInputs+1))
		for i := range in {
			in[i] = netcode.PendingInput{Tick: rng.Uint32(),
				Input:    netcode.Input{Turn: rng.NormFloat64() * 3, Throttle: rng.Float64()*2 - 1},
				Duration: netcode.StepInterval * time.Duration(1+rng.IntN(4))}
			if i%5 == 4 {
				in[i].Duration = time.Duration(rng.Uint32()) * time.Millisecond
			}
		}
		ackTick, ackMask := rng.Uint32(), rng.Uint32()
		b, err := enc.Encode(in, ackTick, ackMask)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Read(b); err != nil {
			t.Fatalf("%d inputs: %v", len(in), err)
		}
		if got := r.AppendInputs(nil); !slices.Equal(got, in) && len(in) > 0 || r.AckTick() != ackTick || r.batch.GetSnapshotAckMask() != ackMask {
			t.Fatalf("encoded %v ack %d/%d, decoded %v ack %d/%d", in, ackTick, ackMask, got, r.AckTick(), r.batch.GetSnapshotAckMask())
		}
	}
}
