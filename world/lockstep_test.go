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
			w := newLockstep(t, 1, pr, netcode.ContactOff, starts, steadyWander())
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
			w := newLockstep(t, 2, pr, netcode.ContactServer, starts, ram)
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
			w := newLockstep(t, seed, pr, netcode.ContactOff, starts, steadyWander())
			w.run(30 * time.Second)
			recv, adapt := w.holds()
			t.Logf("%s seed %d: holds receive %d, server %d", pr.name, seed, recv, adapt)
			if adapt >= recv {
				t.Errorf("%s seed %d: server timeline held %d frames, receive timeline %d: want fewer", pr.name, seed, adapt, recv)
			}
		}
	}
}

// TestLockstep_PredictedContactIsExact: with contact predicted, tanks that ram each other
// and a crowd that wanders into itself are pushed apart by their own clients' inputs. On a
// perfect link every reconciliation is exact, the server applies every push and never
// separates tanks itself. On lossy links a push the server refuses (its states were older
// than the rewind window by the time a retransmitted input arrived) or a pile-up the server
// separates past one radius of overlap leaves a residual: at most 1% of reconciliations.
// Never a snap, and no two tanks overlap by more than 1.5 radii. A client that stopped
// predicting contact would have the server separate tanks (residuals on a perfect link), or
// if it resolved contact itself, show a residual on every touch.
func TestLockstep_PredictedContactIsExact(t *testing.T) {

	ramStarts := []netcode.Pose{{X: 4, Y: 2.5}, {X: 16, Y: 2.5, Heading: math.Pi}} // they meet after a second
	ram := func(p int, _ *rand.Rand, now time.Duration) netcode.Input {
		return netcode.Input{Turn: 0.1 * float64(1-2*p), Throttle: 1}
	}
	crowd := []netcode.Pose{{X: 3, Y: 3}, {X: 5, Y: 3, Heading: 2}, {X: 3, Y: 5, Heading: -1}, {X: 5, Y: 5, Heading: 3},
		{X: 4, Y: 4, Heading: 1}, {X: 6, Y: 4, Heading: -2}}
	for _, pr := range profiles {
		t.Run("ram/"+pr.name, func(t *testing.T) {
			w := newLockstep(t, 2, pr, netcode.ContactPredicted, ramStarts, ram)
			w.run(5 * time.Second)
			w.stop(2 * time.Second)
			checkPredictedContact(t, w, pr)
		})
		t.Run("crowd/"+pr.name, func(t *testing.T) {
			w := newLockstep(t, 3, pr, netcode.ContactPredicted, crowd, steadyWander())
			w.run(20 * time.Second)
			w.stop(2 * time.Second)
			checkPredictedContact(t, w, pr)
		})
	}
}

// checkPredictedContact checks a lockstep run with contact predicted over pr: pushes
// applied; on a perfect link none refused, no separation by the server and no residual; on
// a lossy one at most 1% of pushes refused and 1% of reconciliations with a residual; no
// snap; no overlap deeper than 1.5 radii.
func checkPredictedContact(t *testing.T, w *lockstep, pr profile) {
	t.Helper()
	reconciliations := 0
	for _, c := range w.clients {
		lc := c.local.Counters()
		reconciliations += lc.Reconciliations
		if lc.Snaps != 0 {
			t.Errorf("player %d: Counters() = %+v, want no snap", c.id, lc)
		}
	}
	t.Logf("pushes %d, refused %d, separated by the server %d, residuals %d of %d, deepest overlap %.3f units (%.2f radii)",
		w.srv.pushes, w.srv.refused, w.srv.touches, w.residualFails, reconciliations, w.srv.deepest, w.srv.deepest/w.arena.TankRadius)
	refusable, residuals := 0, 0
	if pr.loss > 0 {
		refusable, residuals = (w.srv.pushes+99)/100, reconciliations/100 // 1%, of pushes rounded up
	} else if w.srv.touches != 0 {
		t.Errorf("the server separated %d pairs itself on a perfect link, want none", w.srv.touches)
	}
	if w.srv.pushes == 0 || w.srv.refused > refusable {
		t.Errorf("the server applied %d pushes and refused %d, want some and at most %d", w.srv.pushes, w.srv.refused, refusable)
	}
	if w.residualFails > residuals {
		t.Errorf("%d reconciliations had a non-zero residual, want at most %d", w.residualFails, residuals)
	}
	if most := 1.5 * w.arena.TankRadius; w.srv.deepest > most {
		t.Errorf("two tanks overlapped by %.3f units, want at most 1.5 radii (%.3f)", w.srv.deepest, most)
	}
}
