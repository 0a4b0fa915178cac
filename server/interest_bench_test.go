package server

import (
	"fmt"
	"math"
	"testing"
	"time"

	"tanknet/netcode"
)

// BenchmarkSnapshotWork measures one server tick with interest management at 16, 64 and 256
// players, each arena sized to the large arena's density (62.5 square units a tank), every
// tank driving in circles with one input per tick, every client acknowledging the previous
// snapshot (so tanks travel as deltas, as on the datagram lane). With a view (the server's choice on a
// large arena) the work and the bytes per tick grow linearly in players: a client is sent
// its neighbourhood, whose size depends on density, not on the player count. "everyone"
// sends every client every tank, as on the default arena: its bytes grow quadratically.
//
//	go test -run '^$' -bench SnapshotWork -benchmem ./server/
//
// "view-fanout" is "view" as the running server does it: the per-client views and delta
// encoding run on one worker per core after the tick (see fanout.go). Its ns/op is the tick
// and its workers together; tick-ns/op is the tick alone, the world goroutine's time, which
// the server's tick duration metric measures (the same as ns/op in the other modes).
//
// Beside ns/op it reports entries/tick (tank entries sent to all clients), bytes/tick,
// entries/client (the mean view) and tick-ns/op.
func BenchmarkSnapshotWork(b *testing.B) {
	for _, mode := range []struct {
		name    string
		radius  float64
		workers int
	}{{"view", netcode.ViewRadius, 0}, {"view-fanout", netcode.ViewRadius, snapshotWorkers()}, {"everyone", -1, 0}} {
		for _, n := range []int{16, 64, 256} {
			b.Run(fmt.Sprintf("%s/players=%d", mode.name, n), func(b *testing.B) {
				cfg := DefaultConfig()
				cfg.MaxPlayers, cfg.Rules.Contact, cfg.ViewRadius = n, netcode.ContactOff, mode.radius
				cfg.Logger = discardLogger()
				side := math.Sqrt(float64(n) / 256) // of the large arena's sides
				cfg.Arena = netcode.Arena{Width: 160 * side, Height: 100 * side, TankRadius: 0.6, Speed: 5, TurnRate: 2.5}
				w := newGame(&cfg, cfg.Logger, new(counters))
				w.setWorkers(mode.workers)
				peers := make([]*sinkPeer, n)
				for i := range peers {
					peers[i] = &sinkPeer{in: []netcode.PendingInput{{Input: netcode.Input{Turn: 0.3, Throttle: 1}, Duration: netcode.StepInterval}}}
					if _, reject := w.join(0, fmt.Sprint("bench-", i), peers[i]); reject != nil {
						b.Fatal(reject.Reason)
					}
				}
				var tick uint32
				var inTick time.Duration // spent in step, the part server_tick_ms measures
				step := func() {
					tick++
					for _, p := range peers {
						p.in[0].Tick, p.ack = tick, tick-1 // every client got the last snapshot: deltas against it
					}
					t0 := time.Now()
					w.step(time.Duration(tick) * tickInterval)
					inTick += time.Since(t0)
					w.settle() // the fan-out's workers finish: ns/op is all the work of a tick
				}
				for range 40 { // two seconds: tanks spread from their spawns, views settle
					step()
				}
				before := w.stats.snapshot()
				inTick = 0
				b.ReportAllocs()
				b.ResetTimer()
				for range b.N {
					step()
				}
				b.StopTimer()
				after := w.stats.snapshot()
				entries := float64(after.StatesMoving+after.StatesIdle-before.StatesMoving-before.StatesIdle) / float64(b.N)
				bytes := float64(after.StateBytesMoving+after.StateBytesIdle-before.StateBytesMoving-before.StateBytesIdle) / float64(b.N)
				b.ReportMetric(entries, "entries/tick")
				b.ReportMetric(bytes, "bytes/tick")
				b.ReportMetric(entries/float64(n), "entries/client")
				b.ReportMetric(float64(inTick.Nanoseconds())/float64(b.N), "tick-ns/op")
			})
		}
	}
}
