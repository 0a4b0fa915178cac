package server

import (
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
	p.pose = netcode.Pose{X: 2, Y: 12.5} // a clear run along the arena's middle
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
		samples = append(samples, sample{now, p.pose})
	}
	limit := 2 * w.cfg.Arena.Speed * paceWindow.Seconds()
	fastest := 0.0
	for i, a := range samples {
		for _, b := range samples[i+1:] {
			if b.now-a.now > paceWindow {
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
	if p.ack != 120 || fp.kicked != "" {
		t.Errorf("ack %d after 10 s (kicked %q), want all 120 inputs applied in the end", p.ack, fp.kicked)
	}
}

// TestWorld_StallRecoveryEndsExactlyWhereInputsSay: an honest client stalls for a second,
// then delivers the second's inputs at once and plays on. The server applies every one in
// order, within the pace, and ends bit for bit where a replay of the inputs does.
func TestWorld_StallRecoveryEndsExactlyWhereInputsSay(t *testing.T) {
	w := newTestWorld(t, nil)
	p, fp := mustJoin(t, w, 0, "staller")
	spawn := p.pose
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
	// The input buffer keeps up to maxBuffered of the stall's backlog waiting its turn (a
	// real client's dilation would drain it by running slower); a few quiet ticks let it.
	for range maxBuffered {
		now += netcode.StepInterval
		w.step(now)
	}
	if fp.kicked != "" {
		t.Fatalf("honest client kicked: %q", fp.kicked)
	}
	if p.ack != tick {
		t.Fatalf("ack %d, want every input (%d) applied", p.ack, tick)
	}
	if want := netcode.Replay(&w.cfg.Arena, spawn, all); p.pose != want {
		t.Errorf("pose %v after the stall, want exactly %v (residual must be zero)", p.pose, want)
	}
}

func TestPace_LeftForgetsGrantsOlderThanTheWindow(t *testing.T) {
	var p pace
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	p.grant(ms(0), ms(200))
	p.grant(ms(500), ms(900))
	if got := p.left(ms(1000), 2*time.Second); got != ms(900) {
		t.Errorf("left at 1 s = %v, want 900ms (both grants within the window)", got)
	}
	if got := p.left(ms(1001), 2*time.Second); got != ms(1100) {
		t.Errorf("left at 1.001 s = %v, want 1.1s (the first grant has aged out)", got)
	}
	if got := p.left(ms(1001), ms(500)); got != 0 {
		t.Errorf("left with a limit below what was used = %v, want 0", got)
	}
}
