package load

import (
	"context"
	"sync"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/internal/servertest"
	"tanknet/netcode"
	"tanknet/server"
	"tanknet/transport"
)

// scriptedInputs is how many inputs each client of the comparison sends and has applied.
const scriptedInputs = 40

// played is what a server's world did with its one player, by move tick: the input applied
// and the tank's pose once that tick was its newest applied one.
type played struct {
	mu     sync.Mutex
	inputs map[uint32]netcode.Input
	poses  map[uint32]netcode.Pose
}

func (p *played) observe(r server.TickRecord) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, a := range r.Applied {
		p.inputs[a.MoveTick] = a.Input
	}
	for i := range r.IDs {
		p.poses[r.Acks[i]] = r.Poses[i]
	}
}

// has reports whether the server has applied move tick first+n.
func (p *played) has(first uint32, n int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.poses[first+uint32(n)]
	return ok
}

func startPlayed(t *testing.T) (*servertest.Server, *played) {
	p := &played{inputs: map[uint32]netcode.Input{}, poses: map[uint32]netcode.Pose{}}
	return servertest.StartObserved(t, nil, p.observe), p
}

// botScript is what the full bot holds in each frame: a new input every 7 frames, so steps
// see turns and throttles of both signs and of several sizes.
func botScript(frame int) netcode.Input {
	k := frame / 7
	return netcode.Input{Turn: float64(k%5-2) / 2, Throttle: float64(k%3-1) * 0.8}
}

// TestThinClient_InputsAppliedLikeFullBot: a full bot (client.Game) plays a script over real
// KCP; a thin client then sends the inputs the server applied for the bot, move tick by move
// tick, to a fresh server. The server must apply the same inputs and put the tank in the
// same pose after every one of them.
func TestThinClient_InputsAppliedLikeFullBot(t *testing.T) {
	ctx := context.Background()
	srvA, a := startPlayed(t)
	sess, err := client.Dial(ctx, srvA.Addr, "full", nil, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	go sess.Run()
	defer sess.Close("done")
	g := client.NewGame(sess, client.DefaultOptions(), time.Now())
	deadline := time.Now().Add(20 * time.Second)
	ticker := time.NewTicker(time.Second / 60)
	defer ticker.Stop()
	for frame := 0; !a.has(0, scriptedInputs); frame++ {
		if time.Now().After(deadline) {
			t.Fatal("the full bot's inputs were not all applied within 20 s")
		}
		now := <-ticker.C
		if err := g.Update(now, botScript(frame)); err != nil {
			t.Fatal(err)
		}
	}
	srvA.Stop()

	srvB, b := startPlayed(t)
	c := joinThin(t, srvB.Addr, func(tick uint32) netcode.Input {
		a.mu.Lock()
		defer a.mu.Unlock()
		return a.inputs[tick] // the thin client's move ticks start where the bot's did: 1
	})
	var m meter
	for k, at := 0, time.Now(); !b.has(0, scriptedInputs); k, at = k+1, at.Add(transport.KCPInterval) {
		if time.Now().After(deadline.Add(20 * time.Second)) {
			t.Fatal("the thin client's inputs were not all applied within 20 s")
		}
		time.Sleep(time.Until(at))
		if _, err := c.pass(at, &m, true, k%passesPerTick == 0); err != nil {
			t.Fatal(err)
		}
	}
	srvB.Stop() // the observer writes no more
	for k := uint32(1); k <= scriptedInputs; k++ {
		if b.inputs[k] != a.inputs[k] {
			t.Errorf("move tick %d: thin client's input applied as %v, the full bot's as %v", k, b.inputs[k], a.inputs[k])
		}
		// A tick that catches up (a client stalled on a loaded machine, its buffer past
		// its bound) applies several inputs and shows the pose after the last of them
		// only: the poses compare where both runs showed one. Both show the last.
		pa, okA := a.poses[k]
		pb, okB := b.poses[k]
		if okA && okB && pa != pb {
			t.Errorf("move tick %d: thin client's tank at %v, the full bot's at %v", k, pb, pa)
		}
	}
	if moved := a.poses[scriptedInputs] != a.poses[0]; !moved {
		t.Errorf("the script never moved the tank: %v", a.poses[0])
	}
}

// joinThin joins a thin client to addr with script; it leaves when the test ends.
func joinThin(t *testing.T, addr string, script Script) *thin {
	t.Helper()
	c, err := dialThin(context.Background(), addr, "thin", "", 5*time.Second, script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { leave([]*thin{c}, "done") })
	return c
}
