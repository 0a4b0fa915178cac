package main

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"tanknet/client"
)

// TestPause_FrozenServerDropsNoOne stops the real server process (SIGSTOP), as a suspended
// laptop or a migrating VM would, for longer than the idle timeout, then lets it go on
// (SIGCONT): the packets its players sent meanwhile wait in its socket, so none of them is
// to blame, and none may be dropped. Each player plays on after the pause.
func TestPause_FrozenServerDropsNoOne(t *testing.T) {
	if testing.Short() {
		t.Skip("builds tankserver and freezes it for 7 s")
	}
	bin := buildServer(t)
	addr := freeUDPAddr(t)
	srv := startServer(t, bin, "-addr", addr)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const players = 4
	var joined atomic.Int32
	lastSnapshot := make([]atomic.Int64, players)
	errs := make([]error, players)
	var wg sync.WaitGroup
	for i := range players {
		wg.Add(1)
		go func() {
			defer wg.Done()
			seen, counted := 0, false
			_, errs[i] = client.RunBot(ctx, client.BotConfig{
				Addr: addr, Name: fmt.Sprint("p", i), Seed: uint64(i + 1), Options: client.DefaultOptions(),
				DialTimeout: 20 * time.Second,
				OnFrame: func(now time.Time, g *client.Game) {
					if !counted {
						counted = true
						joined.Add(1)
					}
					if n := g.Stats().Snapshots; n > seen {
						seen = n
						lastSnapshot[i].Store(now.UnixNano())
					}
				},
			})
		}()
	}
	for deadline := time.Now().Add(30 * time.Second); joined.Load() < players; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d players joined within 30 s", joined.Load(), players)
		}
	}
	time.Sleep(time.Second) // play a little first
	if err := srv.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	time.Sleep(7 * time.Second)
	resumed := time.Now()
	if err := srv.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * time.Second) // play on after the pause
	cancel()
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("player %d: %v, want it still playing after the pause", i+1, err)
		}
		if last := time.Unix(0, lastSnapshot[i].Load()); last.Before(resumed.Add(time.Second)) {
			t.Errorf("player %d heard its last snapshot %v after the resume, want it playing on", i+1, last.Sub(resumed))
		}
	}
}
