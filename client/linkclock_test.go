package client

import (
	"math/rand/v2"
	"testing"
	"time"

	"tanknet/netcode"
	"tanknet/wire"
)

// TestGame_TankComingIntoViewJoinsTheLinkClock: on the adaptive timeline, a tank that comes
// into view after the others is drawn at the delay the link has already shown, not at one
// it warms up to alone.
func TestGame_TankComingIntoViewJoinsTheLinkClock(t *testing.T) {
	sess := &Session{welcome: wire.Welcome{PlayerID: 1, Arena: netcode.DefaultArena()}}
	start := time.Unix(1000, 0)
	opts := DefaultOptions()
	opts.Interp.Timeline = netcode.ServerTimeline
	g := NewGame(sess, opts, start)
	g.uplink.lastPing = start.Add(time.Hour) // no pings: there is no connection to send them on

	// 8 s of snapshots, each 40-110 ms after its tick and never overtaking the one before;
	// tank 2 is in all of them, tank 3 comes into view after 5 s.
	rng := rand.New(rand.NewPCG(3, 4))
	var arrivals []Received
	var last time.Duration
	for tick := uint32(1); tick <= 160; tick++ {
		last = max(last, time.Duration(tick)*netcode.StepInterval+40*time.Millisecond+time.Duration(rng.Int64N(int64(70*time.Millisecond))))
		states := map[uint32]netcode.State{2: {Pose: netcode.Pose{X: 10, Y: 10}}}
		if tick > 100 {
			states[3] = netcode.State{Pose: netcode.Pose{X: 20, Y: 10}}
		}
		arrivals = append(arrivals, Received{At: start.Add(last), Msg: decoded(snapshotMsg(tick, states))})
	}
	for f := 1; f <= 60*8; f++ {
		now := start.Add(time.Duration(f) * time.Second / 60)
		for len(arrivals) > 0 && !arrivals[0].At.After(now) {
			sess.queue = append(sess.queue, arrivals[0])
			arrivals = arrivals[1:]
		}
		if err := g.Update(now, netcode.Input{}); err != nil {
			t.Fatal(err)
		}
		early, late := g.Remotes()[2], g.Remotes()[3]
		if late == nil {
			continue
		}
		if late.Interp.Delay() != early.Interp.Delay() {
			t.Fatalf("%v: the tank that came into view renders %v behind, the one already there %v",
				now.Sub(start), late.Interp.Delay(), early.Interp.Delay())
		}
	}
	if g.Remotes()[3] == nil {
		t.Fatal("the second tank was never drawn")
	}
}
