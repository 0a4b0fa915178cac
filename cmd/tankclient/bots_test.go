package main

import (
	"context"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/internal/servertest"
	"tanknet/server"
)

// TestBotPool_AddsAndRemovesPlayers: the demo's + and - keys add a bot the server sees as a
// player and remove the newest, down to none; at most maxDemoBots play.
func TestBotPool_AddsAndRemovesPlayers(t *testing.T) {
	var players atomic.Int32
	srv := servertest.StartObserved(t, nil, func(r server.TickRecord) { players.Store(int32(len(r.IDs))) })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pool := &botPool{ctx: ctx, addr: srv.Addr, opts: client.DefaultOptions(), logger: slog.Default()}
	defer pool.stop()
	waitPlayers := func(want int32) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second) // joins and goodbyes on a loaded machine
		for players.Load() != want {
			if time.Now().After(deadline) {
				t.Fatalf("server has %d players, want %d", players.Load(), want)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	pool.Add()
	pool.Add()
	pool.Add()
	if n := pool.Count(); n != 3 {
		t.Fatalf("Count() = %d after three Adds, want 3", n)
	}
	waitPlayers(3)
	pool.Remove()
	waitPlayers(2)
	pool.Remove()
	pool.Remove()
	pool.Remove() // one more than there are: nothing to remove
	if n := pool.Count(); n != 0 {
		t.Fatalf("Count() = %d after removing all, want 0", n)
	}
	waitPlayers(0)
	for range maxDemoBots + 3 {
		pool.Add()
	}
	if n := pool.Count(); n != maxDemoBots {
		t.Errorf("Count() = %d after adding past the limit, want %d", n, maxDemoBots)
	}
}
