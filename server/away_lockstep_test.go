package server

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/netcode"
	"tanknet/wire"
)

// TestLockstep_AwayHoldsTheTankAndComesBackClean plays one client on a jittery 30 ms link
// against the real world in virtual time: it drives for 4 s, goes away (GoAway, as a hidden
// page does) for 20 s, four times the idle timeout, during which its frames still run but
// slowly (once a second, as a hidden tab's timers do), then comes back and drives 6 s more.
// While it is away its tank does not move once its last inputs are applied, no tick
// starves, and every away tick is counted; coming back it sends no burst (at most one input
// in its first frame back), no reconciliation ever moves its prediction, and its inputs move
// the tank again.
func TestLockstep_AwayHoldsTheTankAndComesBackClean(t *testing.T) {
	w := newTestWorld(t, nil)
	epoch := time.Unix(5000, 0)
	var now time.Duration
	rng := rand.New(rand.NewPCG(3, 7))
	peer := &lockPeer{now: &now, epoch: epoch, arrived: map[uint32]time.Duration{},
		up:   streamLink{rng: rng, latency: 30 * time.Millisecond, jitter: 10 * time.Millisecond},
		down: streamLink{rng: rng, latency: 30 * time.Millisecond, jitter: 10 * time.Millisecond}}
	p, reject := w.join(now, "away", peer)
	if reject != nil {
		t.Fatalf("join rejected: %v", reject)
	}
	peer.welcome = wire.Welcome{PlayerID: p.tank.ID(), Arena: w.cfg.Arena, Rules: w.cfg.Rules, Lane: wire.LaneReliable, MaxInputLead: w.cfg.inputLead(), AwayTimeout: w.cfg.AwayTimeout}
	g := client.NewGame(peer, client.DefaultOptions(), epoch)
	driver := client.NewDriver(17)
	const (
		awayFrom, awayTo = 4 * time.Second, 24 * time.Second
		end              = 30 * time.Second
		settle           = 500 * time.Millisecond // the inputs in flight when it went away are applied within it
	)
	var held netcode.Pose
	awayTicks, starvedAway, firstBack := 0, 0, -1
	nextTick, nextFrame := netcode.StepInterval, time.Duration(0)
	for now = 0; now < end; now += time.Millisecond {
		if now >= nextTick {
			nextTick += netcode.StepInterval
			rec := w.step(now)
			if now >= awayFrom+settle && now < awayTo {
				if held == (netcode.Pose{}) {
					held = p.tank.Pose()
				}
				if p.tank.Pose() != held {
					t.Fatalf("at %v, away: pose %v, want held at %v", now, p.tank.Pose(), held)
				}
				if slices.Contains(rec.Starved, p.tank.ID()) {
					starvedAway++
				}
			}
		}
		if now < nextFrame {
			continue
		}
		switch {
		case now >= awayFrom && now < awayTo:
			if !g.Away() {
				if err := g.GoAway(); err != nil {
					t.Fatal(err)
				}
			}
			nextFrame += time.Second // a hidden tab's timers
		case g.Away():
			g.Back()
			fallthrough
		default:
			nextFrame += time.Second / 60
		}
		sent := g.Stats().InputsSent
		if err := g.Update(epoch.Add(now), driver.Next()); err != nil {
			t.Fatal(err)
		}
		if firstBack < 0 && now >= awayTo {
			firstBack = int(g.Stats().InputsSent - sent)
		}
	}
	awayTicks = int(w.stats.awayTicks.Load())
	if starvedAway != 0 || awayTicks < 19*20 || w.stats.aways.Load() != 1 {
		t.Errorf("away: %d starved ticks, %d away ticks, %d Aways; want 0, at least %d, 1",
			starvedAway, awayTicks, w.stats.aways.Load(), 19*20)
	}
	if firstBack > 1 {
		t.Errorf("the first frame back sent %d inputs, want at most 1 (no burst)", firstBack)
	}
	if peer.kicked != "" {
		t.Errorf("dropped: %q", peer.kicked)
	}
	wait, _ := g.InputWait()
	rate, jumps := g.Dilation()
	t.Logf("back: median input wait %v, clock rate %v, %d jumps", wait, rate, jumps)
	c := g.Local().Counters()
	if c.NonZeroResiduals != 0 {
		t.Errorf("%d of %d reconciliations moved the prediction (max %v), want none", c.NonZeroResiduals, c.Reconciliations, c.MaxResidual)
	}
	if p.tank.Pose() == held || p.tank.Ack() <= uint32(awayFrom/netcode.StepInterval) {
		t.Errorf("after coming back: pose %v ack %d, want moved from %v by new inputs", p.tank.Pose(), p.tank.Ack(), held)
	}
}
