package view

// Loopback end-to-end tests: a real server and real clients over KCP, driven frame by frame
// like the window drives them, checking what the technique switches would draw.

import (
	"context"
	"net"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/internal/servertest"
	"tanknet/linksim"
	"tanknet/netcode"
)

// Bounds for every loop below: frames are 1/60 s apart, so these are generous.
const (
	frame      = time.Second / 60
	maxFrames  = 900
	loopBudget = 30 * time.Second
)

// startServer serves a game without tank contact on a loopback port until the test ends;
// prediction is then exact, so lags are clean multiples of a step.
func startServer(t *testing.T) string {
	t.Helper()
	return servertest.Start(t, nil).Addr
}

// join connects a client named name over a link with cond and returns its Game.
func join(t *testing.T, addr, name string, cond linksim.Conditions) *client.Game {
	t.Helper()
	udp, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	cc, err := linksim.Condition(udp, cond, 7)
	if err != nil {
		udp.Close()
		t.Fatal(err)
	}
	sess, err := client.Dial(context.Background(), addr, name, cc, 5*time.Second)
	if err != nil {
		cc.Close()
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- sess.Run() }()
	t.Cleanup(func() {
		sess.Close("test over")
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Errorf("%s: session reader did not stop within 5s", name)
		}
		cc.Close()
	})
	return client.NewGame(sess, client.DefaultOptions(), time.Now())
}

// player is one client in a lockstep frame loop and the input it holds.
type player struct {
	g  *client.Game
	in netcode.Input
}

// run updates every player once per frame until each returns false or a bound is hit; it
// fails the test on a session error or when the bounds run out first.
func run(t *testing.T, ps []player, each func(frame int) bool) {
	t.Helper()
	tick := time.NewTicker(frame)
	defer tick.Stop()
	deadline := time.Now().Add(loopBudget)
	for f := 0; f < maxFrames && time.Now().Before(deadline); f++ {
		now := <-tick.C
		for _, p := range ps {
			if err := p.g.Update(now, p.in); err != nil {
				t.Fatalf("frame %d: Update: %v", f, err)
			}
		}
		if !each(f) {
			return
		}
	}
	t.Fatalf("gave up after %d frames or %v", maxFrames, loopBudget)
}

// TestPredictionOffLagsByTheRoundTrip shows what switching prediction off does: the drawn
// tank is the server's last state, which trails the predicted one by exactly the inputs
// still unacknowledged — a round trip of driving.
func TestPredictionOffLagsByTheRoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("loopback end-to-end test")
	}
	const oneWay = 40 * time.Millisecond
	addr := startServer(t)
	cond := linksim.Symmetric(linksim.Link{Latency: oneWay})
	a := join(t, addr, "driver", cond)
	arena := a.Welcome().Arena
	var shadow Unreconciled
	fwd := netcode.Input{Throttle: 1} // the first spawn faces +x with open floor ahead
	step := arena.Speed * netcode.StepInterval.Seconds()

	var frames, acked int
	var lagSum float64
	run(t, []player{{a, fwd}}, func(int) bool {
		l := a.Local()
		if l == nil {
			return true
		}
		shadow.Observe(&arena, l, fwd)
		if l.Counters().Reconciliations < 10 { // let the pipeline fill
			return true
		}
		off, on := (Techniques{}).LocalPose(l, &shadow), AllOn().LocalPose(l, &shadow)
		if base := l.Baseline().Pose; off != base {
			t.Fatalf("prediction off draws %v, want the server's last state %v", off, base)
		}
		if on != l.Visible() {
			t.Fatalf("prediction on draws %v, want Visible %v", on, l.Visible())
		}
		pending := len(l.Pending())
		lag := l.Predicted().X - off.X
		if want := float64(pending) * step; lag < want-1e-6 || lag > want+1e-6 {
			t.Fatalf("prediction off trails by %.4f units, want %d pending steps = %.4f", lag, pending, want)
		}
		frames++
		lagSum += lag
		acked = int(a.Stats().LastAck)
		return frames < 90
	})

	rtt := a.Stats().RTT
	lagTime := time.Duration(lagSum / float64(frames) / arena.Speed * float64(time.Second))
	t.Logf("RTT %v, mean lag of the drawn tank %v of driving, acked up to move %d", rtt, lagTime, acked)
	if rtt < 2*oneWay {
		t.Errorf("RTT %v is below the %v the link adds", rtt, 2*oneWay)
	}
	// The lag cannot be shorter than the added round trip less a step of rounding, and on
	// a loaded machine it stays well within the RTT plus a few ticks of queueing.
	if lagTime < 2*oneWay-netcode.StepInterval || lagTime > rtt+10*netcode.StepInterval {
		t.Errorf("the drawn tank trails by %v of driving, want about the RTT %v", lagTime, rtt)
	}
}

// TestInterpolationOffStepsWithSnapshots shows what switching interpolation off does: a
// remote tank drawn from the newest snapshot moves only in frames where a snapshot arrived,
// while the interpolated one also moves in the frames between.
func TestInterpolationOffStepsWithSnapshots(t *testing.T) {
	if testing.Short() {
		t.Skip("loopback end-to-end test")
	}
	addr := startServer(t)
	watcher := join(t, addr, "watcher", linksim.Conditions{})
	mover := join(t, addr, "mover", linksim.Conditions{})
	circle := netcode.Input{Turn: 1, Throttle: 1} // always turning, so always moving

	var frames, arrivals, offMoves, onMoves, onBetween int
	var lastTick uint32
	var lastOff, lastOn netcode.Pose
	run(t, []player{{watcher, netcode.Input{}}, {mover, circle}}, func(int) bool {
		rm := watcher.Remotes()[mover.Welcome().PlayerID]
		if rm == nil {
			return true
		}
		newest, ok := rm.Interp.Newest()
		if !ok || rm.Interp.Counters().Samples < 10 { // let the buffer fill
			lastTick, lastOff, lastOn = newest.Tick, AllOn().RemotePose(rm), (Techniques{}).RemotePose(rm)
			return true
		}
		off, on := (Techniques{}).RemotePose(rm), AllOn().RemotePose(rm)
		arrived := newest.Tick != lastTick
		if arrived {
			arrivals++
		}
		if off != lastOff {
			offMoves++
			if !arrived {
				t.Fatalf("interpolation off moved from %v to %v in a frame without a snapshot", lastOff, off)
			}
		}
		if on != lastOn {
			onMoves++
			if !arrived {
				onBetween++
			}
		}
		frames++
		lastTick, lastOff, lastOn = newest.Tick, off, on
		return frames < 120
	})

	t.Logf("%d frames, %d with a new snapshot; interpolation off moved in %d, on in %d (%d between snapshots)",
		frames, arrivals, offMoves, onMoves, onBetween)
	if offMoves > arrivals {
		t.Errorf("interpolation off moved in %d frames, more than the %d with a snapshot", offMoves, arrivals)
	}
	if offMoves < arrivals/2 {
		t.Errorf("interpolation off moved in only %d of %d snapshot frames; is the tank moving?", offMoves, arrivals)
	}
	// At 60 frames a second and 20 snapshots, two frames in three fall between snapshots,
	// but a starved runner may draw only one frame per snapshot or fewer. So judge against
	// the frames that really fell between arrivals, ask for a quarter of them to allow for
	// an interpolator holding still while it waits for late snapshots, and only when there
	// are at least as many such frames as arrivals (about two frames per snapshot):
	// otherwise the assertion would say nothing.
	between := frames - arrivals
	if between < arrivals {
		t.Logf("only %d frames fell between %d snapshot arrivals; not judging interpolation between them", between, arrivals)
	} else if onBetween < between/4 {
		t.Errorf("interpolation on moved in %d of the %d frames between snapshots, want at least %d", onBetween, between, between/4)
	}
}
