package netcode_test

import (
	"fmt"
	"time"

	"tanknet/netcode"
)

// A client frame: advance the clock by the frame time, predict and send each due 50 ms
// step, reconcile with every own state the server sent, and draw the visible pose.
func Example_prediction() {
	arena := netcode.DefaultArena()
	start := netcode.State{Pose: netcode.Pose{X: 2, Y: 2}} // the first own state from the server
	local := netcode.NewLocal(&arena, netcode.DefaultLocalConfig(), start)

	var sent []netcode.PendingInput // what went out as MoveInputs
	var last time.Duration
	for i := 1; i <= 9; i++ { // 9 frames at 60 FPS: 150 ms, three prediction steps
		now := time.Duration(i) * time.Second / 60
		for range local.Advance(now - last) {
			sent = append(sent, local.Predict(netcode.Input{Throttle: 1}))
		}
		last = now
	}
	fmt.Println("sent ticks:", sent[0].Tick, sent[1].Tick, sent[2].Tick)
	fmt.Println("predicted:", local.Predicted())

	// The server has applied the first input, with the same netcode.Simulate.
	server := netcode.Simulate(&arena, start.Pose, sent[0].Input, sent[0].Duration)
	local.Reconcile(netcode.State{Tick: 1, Pose: server, Ack: sent[0].Tick})
	c := local.Counters()
	fmt.Println("pending:", c.Pending, "replayed:", c.ReplayedSubsteps, "residual:", c.LastResidual)
	fmt.Println("visible:", local.Visible())
	// Output:
	// sent ticks: 1 2 3
	// predicted: (2.7500, 2.0000, 0.0000rad)
	// pending: 2 replayed: 2 residual: 0
	// visible: (2.5000, 2.0000, 0.0000rad)
}

// A remote tank is drawn 100 ms in the past, between the two states around that moment.
func ExampleInterpolator() {
	ip := netcode.NewInterpolator(netcode.DefaultInterpConfig())
	ms := time.Millisecond
	ip.Push(0*ms, netcode.State{Tick: 1, Pose: netcode.Pose{X: 10, Y: 5}})
	ip.Push(50*ms, netcode.State{Tick: 2, Pose: netcode.Pose{X: 10.25, Y: 5}})

	for _, now := range []time.Duration{120 * ms, 140 * ms, 200 * ms} {
		pose, ok := ip.Sample(now)
		fmt.Println(now, pose, ok)
	}
	fmt.Println("holds:", ip.Counters().Holds)
	// Output:
	// 120ms (10.1000, 5.0000, 0.0000rad) true
	// 140ms (10.2000, 5.0000, 0.0000rad) true
	// 200ms (10.2500, 5.0000, 0.0000rad) false
	// holds: 1
}
