package server

import (
	"runtime"
	"sync"

	"tanknet/wire"
)

// The per-client half of a tick's snapshots. With interest management every client gets its
// own snapshot: its view worked out from the spatial grid, then delta encoded against what it
// acknowledged. That work depends only on what the tick left behind (every tank's state and
// encoded entry, the grid, the tick's list of clients) and on the client's own view and sent
// log, so it need not hold up the world. When the world has workers (the running server),
// the tick ends after placing the tanks in the grid, and the clients are split among that
// many goroutines, which build and offer the snapshots while the world goroutine is free
// again. The next tick first waits for them (world.settle): until then nothing they read is
// written, and each client's view and sent log is written by exactly one of them.
//
// Without workers (tests, benchmarks, TickAllocs) the same work runs inline at the end of
// the tick, in the same order, giving the same bytes.

// fanout is the per-client snapshot work of the latest tick with a view.
type fanout struct {
	workers int            // goroutines the work is split among; 0 runs it inside the tick
	clients []*player      // the tick's players, in id order, as placed in the interest grid
	scratch []snapScratch  // one per worker (at least one): what a snapshot is built in
	running sync.WaitGroup // the workers of the latest tick
}

// snapScratch is one goroutine's reusable buffers for building snapshots.
type snapScratch struct {
	delta   wire.DeltaBuilder // one client's snapshot as chunk datagrams
	entries [][]byte          // one snapshot's encoded PlayerStates
	members []*player         // one snapshot's tanks
	left    []uint32          // one snapshot's left_view
	one     [1]*player        // one snapshot's single recipient
}

// snapshotWorkers is how many goroutines the running server spreads the per-client snapshot
// work over: one per core the process may use, so the work takes every core and no more.
func snapshotWorkers() int { return runtime.GOMAXPROCS(0) }

// setWorkers makes later ticks hand their per-client snapshot work to n goroutines (0 or 1:
// inline, in the tick, the default).
func (g *game) setWorkers(n int) {
	g.settle()
	g.fan.workers = max(n, 0)
	if len(g.fan.scratch) < max(n, 1) {
		g.fan.scratch = append(g.fan.scratch, make([]snapScratch, max(n, 1)-len(g.fan.scratch))...)
	}
}

// fanOut sends every client in fan.clients (placed in the interest grid) its snapshot of
// the current tick: inline without workers, otherwise on the workers, returning at once.
func (g *game) fanOut() {
	f, tick := &g.fan, g.tick()
	n := len(f.clients)
	k := min(f.workers, n)
	if k <= 1 {
		for i := range n {
			g.sendView(i, &f.scratch[0], tick)
		}
		return
	}
	f.running.Add(k)
	for j := range k {
		go func(lo, hi int, sc *snapScratch) {
			defer f.running.Done()
			for i := lo; i < hi; i++ {
				g.sendView(i, sc, tick)
			}
		}(j*n/k, (j+1)*n/k, &f.scratch[j])
	}
}

// settle waits until the latest tick's snapshot workers, if any, are done.
func (g *game) settle() { g.fan.running.Wait() }
