package world_test

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"tanknet/netcode"
)

// Lockstep, virtual-time tests of the whole client netcode against a server over a seeded
// link model (lockstep_harness_test.go).

// steadyWander returns a driver that picks a random input for each player every 400 ms.
func steadyWander() func(int, *rand.Rand, time.Duration) netcode.Input {
	var cur [8]netcode.Input
	var until [8]time.Duration
	return func(p int, rng *rand.Rand, now time.Duration) netcode.Input {
		if now >= until[p] {
			cur[p] = netcode.Input{Turn: 2*rng.Float64() - 1, Throttle: 1.5*rng.Float64() - 0.5}
			until[p] = now + 400*time.Millisecond
		}
		return cur[p]
	}
}

var profiles = []profile{
	{name: "0ms", rtt: 0},
	{name: "100ms+jitter+loss", rtt: 100 * time.Millisecond, jitter: 20 * time.Millisecond, loss: 0.05},
	{name: "300ms+jitter+loss", rtt: 300 * time.Millisecond, jitter: 40 * time.Millisecond, loss: 0.05},
}

func TestLockstep_NoContactResidualIsExactlyZero(t *testing.T) {
	starts := []netcode.Pose{{X: 4, Y: 4}, {X: 35, Y: 20, Heading: math.Pi}, {X: 20, Y: 4, Heading: 1}}
	for _, pr := range profiles {
		t.Run(pr.name, func(t *testing.T) {
			w := newLockstep(t, 1, pr, false, starts, steadyWander())
			w.run(20 * time.Second)
			if w.residualFails != 0 {
				t.Errorf("%d reconciliations had a non-zero residual, want 0", w.residualFails)
			}
			for _, c := range w.clients {
				lc := c.local.Counters()
				if lc.Reconciliations < 300 || lc.NonZeroResiduals != 0 || lc.MaxResidual != 0 ||
					lc.Snaps != 0 || lc.CorrectionsStarted != 0 {
					t.Errorf("player %d: Counters() = %+v, want >= 300 reconciliations, no residual, correction or snap", c.id, lc)
				}
			}
			w.stop(2 * time.Second)
			for _, c := range w.clients {
				if got, want := c.local.Predicted(), w.srv.tanks[c.id].Pose(); got != want || c.local.Visible() != want {
					t.Errorf("player %d at rest: Predicted() = %v, Visible() = %v, server has %v", c.id, got, c.local.Visible(), want)
				}
			}
			if w.bracketed[0] == 0 || w.bracketed[1] == 0 {
				t.Errorf("bracketed remote frames = %v, want some on both timelines", w.bracketed)
			}
			r, a := w.holds()
			t.Logf("%s: holds receive %d, server %d; bracketed %v; worst remote error %.3g",
				pr.name, r, a, w.bracketed, w.worstRemote)
		})
	}
}

func TestLockstep_ContactCorrectsWithinBounds(t *testing.T) {
	// Two tanks drive head-on into each other; only the server resolves the contact, so
	// each client mispredicts every tick they touch.
	starts := []netcode.Pose{{X: 4, Y: 2.5}, {X: 8, Y: 2.5, Heading: math.Pi}}
	ram := func(p int, _ *rand.Rand, now time.Duration) netcode.Input {
		return netcode.Input{Turn: 0.1 * float64(1-2*p), Throttle: 1}
	}
	budget := netcode.DefaultCorrectionConfig().Budget
	for _, pr := range profiles {
		t.Run(pr.name, func(t *testing.T) {
			w := newLockstep(t, 2, pr, true, starts, ram)
			w.run(3 * time.Second) // run checks every frame that offsets stay below the snap threshold
			for _, c := range w.clients {
				c.drive = func(time.Duration) netcode.Input { return netcode.Input{Throttle: -1} }
			}
			w.run(time.Second)
			w.stop(2 * time.Second)
			if w.srv.touches == 0 {
				t.Fatal("the tanks never touched")
			}
			for _, c := range w.clients {
				lc := c.local.Counters()
				t.Logf("player %d: %+v, largest offset %.3f, longest correction %v", c.id, lc, c.maxOff, c.maxRun)
				if lc.NonZeroResiduals == 0 || lc.CorrectionsStarted+lc.Snaps == 0 {
					t.Errorf("player %d: Counters() = %+v, want residuals and corrections from contact", c.id, lc)
				}
				if c.maxRun > budget+fps60 {
					t.Errorf("player %d: a correction ran %v, want converged or snapped within %v", c.id, c.maxRun, budget)
				}
				if c.local.Correcting() || lc.CorrectionsStarted != lc.CorrectionsConverged+lc.CorrectionsEscalated {
					t.Errorf("player %d: at rest correcting=%v, Counters() = %+v: every correction must end", c.id, c.local.Correcting(), lc)
				}
				if got, want := c.local.Visible(), w.srv.tanks[c.id].Pose(); got != want {
					t.Errorf("player %d at rest: Visible() = %v, server has %v", c.id, got, want)
				}
			}
		})
	}
}

// Under jitter and retransmission bursts the receive timeline holds whenever an arrival gap
// exceeds its fixed 100 ms, while the server timeline raises its delay after the first
// bursts (up to MaxDelay). It holds less, though not never: a 300 ms RTT's retransmission
// (RTO 510 ms here) is longer than MaxDelay, by design.
func TestLockstep_ServerTimelineHoldsLessUnderBursts(t *testing.T) {
	starts := []netcode.Pose{{X: 4, Y: 4}, {X: 35, Y: 20, Heading: math.Pi}}
	for _, pr := range profiles[1:] { // the profiles with jitter and retransmission bursts
		for seed := uint64(10); seed < 13; seed++ {
			w := newLockstep(t, seed, pr, false, starts, steadyWander())
			w.run(30 * time.Second)
			recv, adapt := w.holds()
			t.Logf("%s seed %d: holds receive %d, server %d", pr.name, seed, recv, adapt)
			if adapt >= recv {
				t.Errorf("%s seed %d: server timeline held %d frames, receive timeline %d: want fewer", pr.name, seed, adapt, recv)
			}
		}
	}
}
