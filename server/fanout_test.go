package server

import (
	"bytes"
	"fmt"
	"math"
	"testing"
	"time"

	"tanknet/netcode"
	"tanknet/wire"
)

// TestFanout_SameBytesAsInline runs two worlds side by side through the same ticks, joins
// and leaves, one building its per-client snapshots inline and one on four workers after the
// tick, with joins and leaves landing while those workers may still run (as the server's
// world goroutine does). Every client must get byte-identical snapshots from both, on both
// lanes. Under -race it also checks that the workers share nothing they should not.
func TestFanout_SameBytesAsInline(t *testing.T) {
	for _, lane := range []wire.Lane{wire.LaneDatagram, wire.LaneReliable} {
		t.Run(lane.String(), func(t *testing.T) {
			mutate := func(c *Config) {
				c.Lane, c.MaxPlayers = lane, 64
				side := math.Sqrt(64.0 / 256) // the large arena's density, as BenchmarkSnapshotWork
				c.Arena = netcode.Arena{Width: 160 * side, Height: 100 * side, TankRadius: 0.6, Speed: 5, TurnRate: 2.5}
				c.ViewRadius = netcode.ViewRadius
			}
			inline, fanned := newTestWorld(t, mutate), newTestWorld(t, mutate)
			fanned.setWorkers(4)
			defer fanned.settle()
			type pair struct {
				id   uint32
				a, b *fakePeer
			}
			var clients []pair
			join := func(i int) {
				name := fmt.Sprint("tank-", i)
				pa, fa := mustJoin(t, inline, 0, name)
				pb, fb := mustJoin(t, fanned, 0, name)
				if pa.tank.ID() != pb.tank.ID() {
					t.Fatalf("join %d: ids %d and %d differ", i, pa.tank.ID(), pb.tank.ID())
				}
				clients = append(clients, pair{pa.tank.ID(), fa, fb})
			}
			for i := range 48 {
				join(i)
			}
			compared := 0
			for tick := uint32(1); tick <= 80; tick++ {
				for i, c := range clients {
					in := netcode.PendingInput{Tick: tick, Input: netcode.Input{Turn: float64(i%7-3) / 3, Throttle: 1}, Duration: netcode.StepInterval}
					c.a.inputs, c.b.inputs = append(c.a.inputs, in), append(c.b.inputs, in)
					if i%3 != 0 { // a third never acknowledge: whole states every tick
						c.a.ack, c.b.ack = tick-1, tick-1
					}
				}
				now := time.Duration(tick) * tickInterval
				inline.step(now)
				fanned.step(now)
				switch { // while the workers may still be sending
				case tick%10 == 5:
					join(len(clients) + 100)
				case tick%10 == 7:
					gone := clients[int(tick)%len(clients)]
					inline.leave(gone.id, "bye")
					fanned.leave(gone.id, "bye")
				}
				fanned.settle()
				for _, c := range clients {
					if !bytes.Equal(c.a.snapshot, c.b.snapshot) || len(c.a.chunks) != len(c.b.chunks) {
						t.Fatalf("tick %d: client %d got different snapshots inline and fanned out", tick, c.id)
					}
					for k := range c.a.chunks {
						if !bytes.Equal(c.a.chunks[k], c.b.chunks[k]) {
							t.Fatalf("tick %d: client %d chunk %d differs inline and fanned out", tick, c.id, k)
						}
					}
					if c.a.snapshot != nil || c.a.chunks != nil {
						compared++
					}
				}
			}
			if compared < 80*48 {
				t.Fatalf("compared %d snapshots, want at least %d", compared, 80*48)
			}
			if a, b := inline.stats.snapshot(), fanned.stats.snapshot(); a.StateBytesMoving != b.StateBytesMoving || a.StateBytesIdle != b.StateBytesIdle {
				t.Errorf("bytes counted: inline %d moving %d idle, fanned out %d moving %d idle",
					a.StateBytesMoving, a.StateBytesIdle, b.StateBytesMoving, b.StateBytesIdle)
			}
		})
	}
}
