package wire_test

import (
	"fmt"

	"tanknet/netcode"
	"tanknet/wire"
)

// A server sends a client tick 11 against tick 10, which the client acknowledged: tank 1
// (the client's own) travels whole, tank 2 stood still and costs its id, tank 3 moved and
// costs its id and offsets. The client rebuilds all three from the one chunk.
func Example() {
	combat := wire.Combat{Health: 100}
	at := func(id uint32, x float64, tick uint32) wire.Tank {
		return wire.TankOf(id, netcode.State{Tick: tick, Pose: netcode.Pose{X: x, Y: 5}}, combat)
	}
	then := []wire.Tank{at(1, 2, 10), at(2, 4, 10), at(3, 6, 10)}
	now := []wire.Tank{at(1, 2.5, 11), at(2, 4, 11), at(3, 6.5, 11)}

	// The server: each tank's entry encoded once, then this client's chunks.
	var enc wire.EntryEncoder
	var b wire.DeltaBuilder
	b.Reset(wire.Header{Tick: 11}, 10)
	for i, t := range now {
		entry, err := enc.Append(nil, t, 11)
		if err != nil {
			panic(err)
		}
		fmt.Printf("tank %d: %d bytes\n", t.ID, b.Add(entry, t, then[i], t.ID != 1))
	}
	chunks, err := b.Datagrams()
	if err != nil {
		panic(err)
	}

	// The client: it kept what tick 10 said, and takes the chunk.
	var bases wire.Baselines
	for _, t := range then {
		bases.Record(10, t)
	}
	snap, err := wire.ReceiveChunk(chunks[0], 10)
	if err != nil {
		panic(err)
	}
	whole := bases.Tanks(snap, func(t wire.Tank) {
		s := t.State(snap.Tick)
		fmt.Printf("tank %d at x=%v in tick %d\n", t.ID, s.Pose.X, s.Tick)
	})
	fmt.Println("rebuilt whole:", whole)
	// Output:
	// tank 1: 15 bytes
	// tank 2: 1 bytes
	// tank 3: 5 bytes
	// tank 1 at x=2.5 in tick 11
	// tank 2 at x=4 in tick 11
	// tank 3 at x=6.5 in tick 11
	// rebuilt whole: true
}
