package client_test

import (
	"context"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/internal/servertest"
	"tanknet/server"
)

// TestBot_HoldFire: a gunner whose HoldFire says so fires no shot, while a gunner beside it
// in a small open arena, aiming at it, does (the control).
func TestBot_HoldFire(t *testing.T) {
	// A small open arena: the two are always in range and in sight.
	srv := servertest.Start(t, func(c *server.Config) { c.Arena.Width, c.Arena.Height, c.Arena.Obstacles = 12, 10, nil })
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	type result struct {
		rep client.Report
		err error
	}
	play := func(name string, seed uint64, hold bool) <-chan result {
		done := make(chan result, 1)
		go func() {
			rep, err := client.RunBot(ctx, client.BotConfig{Addr: srv.Addr, Name: name, Seed: seed, Options: client.DefaultOptions(),
				Fire: true, LagComp: true, Duration: 6 * time.Second, HoldFire: func() bool { return hold }})
			done <- result{rep, err}
		}()
		return done
	}
	held, free := play("held", 1, true), play("free", 2, false)
	h, f := <-held, <-free
	if h.err != nil || f.err != nil {
		t.Fatalf("bots: %v, %v", h.err, f.err)
	}
	if h.rep.Shots != 0 {
		t.Errorf("the bot holding its fire fired %d shots, want none", h.rep.Shots)
	}
	if f.rep.Shots == 0 {
		t.Errorf("the free gunner fired no shot in 6 s at the only other tank: the control failed")
	}
}
