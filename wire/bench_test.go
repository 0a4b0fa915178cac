package wire

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"tanknet/netcode"
)

// benchTanks is n tanks at tick 1000 and the same tanks a tick earlier as a baseline: a third
// stood still, a third moved a step, a third changed health.
func benchTanks(n int) (now, base []Tank) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range n {
		t := randomTank(rng, uint32(i+1))
		b := t
		switch i % 3 {
		case 1:
			b.Grid.X -= 40
		case 2:
			b.Combat.Health++
		}
		now, base = append(now, t), append(base, b)
	}
	return now, base
}

// BenchmarkEntryEncoder measures encoding one tank's entry, as the server does for every
// tank once a tick, into a reused buffer.
func BenchmarkEntryEncoder(b *testing.B) {
	now, _ := benchTanks(1)
	var enc EntryEncoder
	buf, _ := enc.Append(nil, now[0], 1000)
	b.ReportAllocs()
	for range b.N {
		var err error
		if buf, err = enc.Append(buf, now[0], 1000); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDeltaBuilder measures one client's snapshot of 32 and 256 tanks against a
// baseline, from Reset to the datagrams, with the builder reused as the server reuses it:
// the datagrams' one buffer and their slice are its only allocations.
func BenchmarkDeltaBuilder(b *testing.B) {
	for _, n := range []int{32, 256} {
		b.Run(fmt.Sprintf("tanks=%d", n), func(b *testing.B) {
			now, base := benchTanks(n)
			var enc EntryEncoder
			entries := make([][]byte, n)
			for i, t := range now {
				entries[i], _ = enc.Append(nil, t, 1000)
			}
			left := []uint32{5000, 5001}
			var d DeltaBuilder
			b.ReportAllocs()
			for range b.N {
				d.Reset(Header{Tick: 1000, Left: left}, 999)
				for i, t := range now {
					d.Add(entries[i], t, base[i], true)
				}
				if _, err := d.Datagrams(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkReceiveChunk measures a client taking one delta chunk of 32 tanks: decoding and
// checking the datagram, then rebuilding its tanks against the baseline.
func BenchmarkReceiveChunk(b *testing.B) {
	now, base := benchTanks(32)
	var enc EntryEncoder
	var d DeltaBuilder
	d.Reset(Header{Tick: 1000}, 999)
	for i, t := range now {
		e, _ := enc.Append(nil, t, 1000)
		d.Add(e, t, base[i], true)
	}
	chunks, err := d.Datagrams()
	if err != nil || len(chunks) != 1 {
		b.Fatalf("%d chunks, %v", len(chunks), err)
	}
	var bases Baselines
	for _, t := range base {
		bases.Record(999, t)
	}
	n := 0
	use := func(Tank) { n++ }
	b.ReportAllocs()
	b.SetBytes(int64(len(chunks[0])))
	for range b.N {
		snap, err := ReceiveChunk(chunks[0], 999)
		if err != nil {
			b.Fatal(err)
		}
		if !bases.Tanks(snap, use) {
			b.Fatal("chunk not rebuilt")
		}
	}
}

// BenchmarkBatchEncoder measures encoding the InputBatch a client sends every prediction
// step (10 inputs) with its reused encoder.
func BenchmarkBatchEncoder(b *testing.B) {
	in := make([]netcode.PendingInput, 10)
	for i := range in {
		in[i] = netcode.PendingInput{Tick: uint32(500 + i), Input: netcode.Input{Turn: 0.5, Throttle: 1}, Duration: netcode.StepInterval}
	}
	var enc BatchEncoder
	b.ReportAllocs()
	for range b.N {
		if _, err := enc.Encode(in, 990, 0xffff); err != nil {
			b.Fatal(err)
		}
	}
}
