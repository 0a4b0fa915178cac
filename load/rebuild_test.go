package load

import (
	"math/rand/v2"
	"testing"

	"tanknet/netcode"
	"tanknet/wire"
)

// TestThinArrivals_AckLikeFullDecode: a server's delta snapshots of 60 tanks (a few chunks a
// tick), built against what the client acknowledged, with a fifth of the chunks lost, some
// duplicated and some arriving a tick late. Every tenth tick the server misbehaves and
// builds against a tick the client got nothing of (a delta no client can rebuild), and every
// twentieth all tanks change health then, so all travel whole in spite of the baseline. A thin client's arrivals (wire.ScanChunk and
// rebuildable, no tanks kept) must acknowledge exactly the ticks the full decode does
// (wire.ReceiveChunk and wire.Baselines.Tanks, every tank kept), and read the same own
// acknowledged move tick from every chunk.
func TestThinArrivals_AckLikeFullDecode(t *testing.T) {
	const (
		tanks   = 60
		self    = 17
		window  = 32 // ticks of sent snapshots the server keeps as baselines
		lastTik = 600
	)
	rng := rand.New(rand.NewPCG(7, 38))
	history := map[uint32][]wire.Tank{} // what the server sent, by tick
	var full, scan arrivals
	var bases wire.Baselines
	var enc wire.EntryEncoder
	var d wire.DeltaBuilder
	var late [][]byte
	gotAny := map[uint32]bool{} // ticks the client got a chunk of
	acked, rebuilt, spoiled, wholeOverBase := 0, 0, 0, 0
	for tick := uint32(1); tick <= lastTik; tick++ {
		now := make([]wire.Tank, tanks)
		for i := range now {
			id := uint32(i + 1)
			pose := netcode.Pose{X: float64(id) + float64(tick%7)*float64(i%3), Y: float64(i % 5)}
			health := 100 - tick/50
			if tick%20 == 0 {
				health = 1
			}
			now[i] = wire.TankOf(id, netcode.State{Tick: tick, Pose: pose, Ack: tick*2 + id}, wire.Combat{Health: health})
		}
		history[tick] = now
		baseline, _ := full.ack()
		if baseline+window < tick {
			baseline = 0
		}
		for k := uint32(1); tick%10 == 0 && k < 20 && k < tick; k++ {
			if !gotAny[tick-k] {
				baseline = tick - k // never acknowledged: the misbehaving server's choice
				break
			}
		}
		d.Reset(wire.Header{Tick: tick}, baseline)
		for i, tk := range now {
			e, err := enc.Append(nil, tk, tick)
			if err != nil {
				t.Fatal(err)
			}
			var base wire.Tank
			hasBase := baseline != 0 && tk.ID != self // a client's own tank travels whole
			if hasBase {
				base = history[baseline][i]
			}
			d.Add(e, tk, base, hasBase)
		}
		chunks, err := d.Datagrams()
		if err != nil {
			t.Fatal(err)
		}
		var arrive [][]byte
		for _, b := range chunks {
			switch r := rng.IntN(10); {
			case r < 2: // lost
			case r < 3:
				late = append(late, b)
			case r < 4:
				arrive = append(arrive, b, b)
			default:
				arrive = append(arrive, b)
			}
		}
		if rng.IntN(2) == 0 {
			arrive, late = append(arrive, late...), late[:0]
		}
		for _, b := range arrive {
			snap, err := wire.ReceiveChunk(b, tick)
			gotAny[snap.Tick] = true
			if err != nil {
				t.Fatal(err)
			}
			h, err := wire.ScanChunk(b, tick, self)
			if err != nil {
				t.Fatal(err)
			}
			var fullOwn, fullHasOwn bool
			var fullAck uint32
			if full.chunk(snap.Tick, snap.Index, max(snap.Count, 1)) {
				ok := bases.Tanks(snap, func(tk wire.Tank) {
					bases.Record(snap.Tick, tk)
					if tk.ID == self {
						fullHasOwn, fullAck = true, tk.Ack
					}
				})
				full.settle(snap.Tick, !ok)
				fullOwn = true
				switch {
				case !ok:
					spoiled++
				case snap.Baseline != 0 && len(snap.Unchanged)+len(snap.Moved) == 0:
					wholeOverBase++
				case snap.Baseline != 0:
					rebuilt++
				}
			}
			if scan.chunk(h.Tick, h.Index, h.Count) {
				if !fullOwn {
					t.Fatalf("tick %d chunk %d: the thin client takes a chunk the full decode does not", h.Tick, h.Index)
				}
				scan.settle(h.Tick, !scan.rebuildable(&h))
				if h.Own != fullHasOwn || h.OwnAck != fullAck {
					t.Fatalf("tick %d chunk %d: own state %v ack %d, the full decode's %v %d", h.Tick, h.Index, h.Own, h.OwnAck, fullHasOwn, fullAck)
				}
			}
		}
		ft, fm := full.ack()
		st, sm := scan.ack()
		if ft != st || fm != sm {
			t.Fatalf("tick %d: the thin client acknowledges %d %032b, the full decode %d %032b", tick, st, sm, ft, fm)
		}
		if ft != 0 {
			acked++
		}
	}
	if full.complete != scan.complete || full.missing() != scan.missing() {
		t.Errorf("complete %d missing %d, the full decode's %d %d", scan.complete, scan.missing(), full.complete, full.missing())
	}
	if spoiled == 0 || wholeOverBase == 0 {
		t.Errorf("%d chunks could not be rebuilt, %d whole against a baseline: the misbehaving server was not tested", spoiled, wholeOverBase)
	}
	if rebuilt < lastTik/2 || acked < lastTik/2 {
		t.Errorf("only %d delta chunks rebuilt and %d ticks acknowledged: the test does not test deltas", rebuilt, acked)
	}
}
