package client

import (
	"testing"
	"time"

	"tanknet/netcode"
	"tanknet/wire"
)

// BenchmarkFrame measures one client frame's netcode with 16 remote tanks: take a snapshot
// from the queue, reconcile our own tank against it (replaying a round trip's worth of
// pending inputs), feed the 16 remote buffers and sample every remote pose.
func BenchmarkFrame(b *testing.B) {
	const remotes = 16
	arena := netcode.DefaultArena()
	sess := &Session{welcome: wire.Welcome{PlayerID: 1, Arena: arena}}
	start := time.Unix(0, 0)
	g := NewGame(sess, DefaultOptions(), start)
	g.uplink.lastPing = start.Add(100 * 365 * 24 * time.Hour) // no pings: the session has no connection

	// Our tank exists and has 6 inputs (300 ms) in flight.
	g.pred.local = netcode.NewLocal(&g.welcome.Arena, g.opts.Local, netcode.State{Pose: netcode.Pose{X: 5, Y: 5}})
	for range 6 {
		g.pred.local.Predict(netcode.Input{Turn: 0.5, Throttle: 1})
	}
	snaps := make([]*wire.Snapshot, 64)
	for i := range snaps {
		tick := uint32(i + 1)
		snap := &wire.Snapshot{Header: wire.Header{Tick: tick}}
		for id := uint32(1); id <= remotes+1; id++ {
			snap.Tanks = append(snap.Tanks, wire.TankOf(id, netcode.State{
				Tick: tick, Pose: netcode.Pose{X: float64(id), Y: 5 + float64(tick)*0.01}, Ack: 0}, wire.Combat{}))
		}
		snaps[i] = snap
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		// Ticks keep rising so every snapshot is accepted, as in a real game.
		snap := snaps[i%len(snaps)]
		round := uint32(i/len(snaps)) * uint32(len(snaps))
		snap.Tick = round + uint32(i%len(snaps)) + 1
		at := start.Add(time.Duration(i) * 50 * time.Millisecond)
		sess.queue = append(sess.queue, Received{At: at, Msg: snap})
		g.pace.last = at // a zero-length frame: no prediction step to send, the session has no connection
		if err := g.Update(at, netcode.Input{}); err != nil {
			b.Fatal(err)
		}
	}
	if got := len(g.others.tanks); got != remotes {
		b.Fatalf("remotes = %d, want %d", got, remotes)
	}
}
