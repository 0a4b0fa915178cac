package main

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tanknet/client"
)

// players are bots playing a server started by a test, each until its context ends or the
// server drops it.
type players struct {
	wg           sync.WaitGroup
	joined       atomic.Int32
	lastSnapshot []atomic.Int64 // UnixNano of each bot's newest snapshot
	errs         []error
}

// playBots starts n bots on addr and waits until every one has joined (failing t after 30 s).
func playBots(t *testing.T, ctx context.Context, addr string, n int) *players {
	t.Helper()
	return playBotsIn(t, ctx, addr, "", n)
}

// playBotsIn is playBots in room ("" for the default room).
func playBotsIn(t *testing.T, ctx context.Context, addr, room string, n int) *players {
	t.Helper()
	ps := &players{lastSnapshot: make([]atomic.Int64, n), errs: make([]error, n)}
	for i := range n {
		ps.wg.Add(1)
		go func() {
			defer ps.wg.Done()
			seen, counted := 0, false
			_, ps.errs[i] = client.RunBot(ctx, client.BotConfig{
				Addr: addr, Name: fmt.Sprint("p", i), Room: room, Seed: uint64(i + 1), Options: client.DefaultOptions(),
				DialTimeout: 20 * time.Second,
				OnFrame: func(now time.Time, g *client.Game) {
					if !counted {
						counted = true
						ps.joined.Add(1)
					}
					if s := g.Stats().Snapshots; s > seen {
						seen = s
						ps.lastSnapshot[i].Store(now.UnixNano())
					}
				},
			})
		}()
	}
	for deadline := time.Now().Add(30 * time.Second); int(ps.joined.Load()) < n; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d players joined within 30 s", ps.joined.Load(), n)
		}
	}
	return ps
}

// wait waits for every bot to end and returns how each ended.
func (ps *players) wait() []error {
	ps.wg.Wait()
	return ps.errs
}

// heardAfter returns how long after at bot i heard its newest snapshot (negative: before).
func (ps *players) heardAfter(i int, at time.Time) time.Duration {
	return time.Unix(0, ps.lastSnapshot[i].Load()).Sub(at)
}
