package server_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/internal/servertest"
	"tanknet/netcode"
	"tanknet/server"
	"tanknet/wire"
)

// TestGoodbye_EndToEnd_NothingSentIsLost: over real KCP, a client that sends 100 inputs
// (the first few at once, so its input buffer holds some at every tick) and then says
// Goodbye has all 100 applied before its tank leaves the game.
func TestGoodbye_EndToEnd_NothingSentIsLost(t *testing.T) {
	var mu sync.Mutex
	applied := map[uint32]int{} // by player
	left := map[uint32]uint32{} // player -> the tick whose record says it left
	srv := servertest.StartObserved(t, nil, func(rec server.TickRecord) {
		mu.Lock()
		defer mu.Unlock()
		for _, a := range rec.Applied {
			applied[a.Player]++
		}
		for _, e := range rec.Events {
			if e.Left {
				left[e.Player] = rec.Tick
			}
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sess, err := client.Dial(ctx, srv.Addr, "leaver", nil, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	id := sess.Welcome().PlayerID
	go func() { _ = sess.Run() }() // read what the server sends, as a client does
	in := func(tick uint32) netcode.PendingInput {
		return netcode.PendingInput{Tick: tick, Input: netcode.Input{Turn: 0.3, Throttle: 1}, Duration: netcode.StepInterval}
	}
	tick := uint32(0)
	for range 6 { // a burst, as after a jittery link: the buffer stays a few inputs deep
		tick++
		if err := sess.Send(wire.Move(in(tick))); err != nil {
			t.Fatal(err)
		}
	}
	for next := time.Now(); tick < 100; {
		next = next.Add(netcode.StepInterval)
		time.Sleep(time.Until(next))
		tick++
		if err := sess.Send(wire.Move(in(tick))); err != nil {
			t.Fatal(err)
		}
	}
	sess.Close("done")
	for {
		mu.Lock()
		_, gone := left[id]
		n := applied[id]
		mu.Unlock()
		if gone {
			if n != 100 {
				t.Errorf("%d of the 100 inputs sent before the Goodbye were applied, want all", n)
			}
			return
		}
		if ctx.Err() != nil {
			t.Fatalf("the player had not left 30 s after its Goodbye (%d inputs applied)", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
