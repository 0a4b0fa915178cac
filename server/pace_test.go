package server

import (
	"tanknet/world"
	"testing"
	"time"

	"tanknet/netcode"
)

// TestWorld_SaveThenBurstStaysWithinTwiceSpeed: a client idles for three seconds, then sends
// six seconds of full throttle at once (as much as the input lead allows). Over every second of server time its tank covers at
// most twice the arena speed's distance.
func TestWorld_SaveThenBurstStaysWithinTwiceSpeed(t *testing.T) {
	w := newTestWorld(t, nil)
	p, fp := mustJoin(t, w, 0, "saver")
	placeAt(w, p, netcode.Pose{X: 2, Y: 12.5}) // a clear run along the arena's middle
	w.cfg.Arena.Obstacles = nil
	w.cfg.Arena.Width = 1000
	type sample struct {
		now  time.Duration
		pose netcode.Pose
	}
	var samples []sample
	now := time.Duration(0)
	for range 60 { // three idle seconds
		now += netcode.StepInterval
		w.step(now)
	}
	fp.inputs = steps(1, 120, netcode.Input{Throttle: 1}, 50*time.Millisecond)
	for range 200 {
		now += netcode.StepInterval
		w.step(now)
		samples = append(samples, sample{now, p.tank.Pose()})
	}
	limit := 2 * w.cfg.Arena.Speed * time.Second.Seconds()
	fastest := 0.0
	for i, a := range samples {
		for _, b := range samples[i+1:] {
			if b.now-a.now > time.Second {
				break
			}
			d := a.pose.Distance(b.pose)
			fastest = max(fastest, d)
			if d > limit+1e-9 {
				t.Fatalf("from %v to %v the tank covered %.3f units, more than twice the speed allows (%.3f)", a.now, b.now, d, limit)
			}
		}
	}
	if fastest < 0.9*limit {
		t.Errorf("fastest second covered %.3f units, want close to the %.3f limit (the burst should run at the cap)", fastest, limit)
	}
	if p.tank.Ack() != 120 || fp.kicked != "" {
		t.Errorf("ack %d after 10 s (kicked %q), want all 120 inputs applied in the end", p.tank.Ack(), fp.kicked)
	}
}

// TestWorld_StallRecoveryEndsExactlyWhereInputsSay: an honest client stalls for a second,
// then delivers the second's inputs at once and plays on. The server applies every one in
// order, within the pace, and ends bit for bit where a replay of the inputs does.
func TestWorld_StallRecoveryEndsExactlyWhereInputsSay(t *testing.T) {
	w := newTestWorld(t, nil)
	p, fp := mustJoin(t, w, 0, "staller")
	spawn := p.tank.Pose()
	var all []netcode.PendingInput
	tick := uint32(0)
	input := func() netcode.PendingInput {
		tick++
		in := netcode.PendingInput{Tick: tick, Input: netcode.Input{Turn: 0.3, Throttle: 0.8}, Duration: 50 * time.Millisecond}
		if tick%7 == 0 {
			in.Input = netcode.Input{Turn: -1, Throttle: -0.5}
		}
		all = append(all, in)
		return in
	}
	now := time.Duration(0)
	for i := range 120 {
		now += netcode.StepInterval
		switch {
		case i < 20 || i >= 40: // playing
			fp.inputs = append(fp.inputs, input())
		case i == 39: // the stall ends: its second of inputs arrives at once
			for range 20 {
				fp.inputs = append(fp.inputs, input())
			}
		}
		w.step(now)
	}
	// The input buffer keeps up to world.MaxBuffered of the stall's backlog waiting its turn (a
	// real client's dilation would drain it by running slower); a few quiet ticks let it.
	for range world.MaxBuffered {
		now += netcode.StepInterval
		w.step(now)
	}
	if fp.kicked != "" {
		t.Fatalf("honest client kicked: %q", fp.kicked)
	}
	if p.tank.Ack() != tick {
		t.Fatalf("ack %d, want every input (%d) applied", p.tank.Ack(), tick)
	}
	if want := netcode.Replay(&w.cfg.Arena, spawn, all); p.tank.Pose() != want {
		t.Errorf("pose %v after the stall, want exactly %v (residual must be zero)", p.tank.Pose(), want)
	}
}
