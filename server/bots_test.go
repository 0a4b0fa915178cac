package server_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"tanknet/client"
)

// botResult is how one bot's run ended.
type botResult struct {
	rep client.Report
	err error
}

// goBot plays the bot cfg describes on a goroutine of its own; its result comes on the
// channel.
func goBot(ctx context.Context, cfg client.BotConfig) <-chan botResult {
	done := make(chan botResult, 1)
	go func() {
		rep, err := client.RunBot(ctx, cfg)
		done <- botResult{rep, err}
	}()
	return done
}

// startBystander starts a well-behaved bot on addr that plays for two seconds beside
// whatever a test throws at the server; checkUndisturbed judges how it went.
func startBystander(ctx context.Context, addr string) <-chan botResult {
	return goBot(ctx, client.BotConfig{
		Addr: addr, Name: "good", Seed: 7, Duration: 2 * time.Second, Options: client.DefaultOptions()})
}

// checkUndisturbed fails t unless the bystander played its two seconds without an error, a
// residual or a snap, hearing most of the server's snapshots.
func checkUndisturbed(t *testing.T, res botResult) {
	t.Helper()
	if res.err != nil {
		t.Fatalf("well-behaved bot: %v", res.err)
	}
	if res.rep.Snapshots < 20 || res.rep.ResidualNonZero != 0 || res.rep.Snaps != 0 {
		t.Errorf("well-behaved bot: %+v, want it playing undisturbed", res.rep)
	}
}

// playBots plays n bots at once, the i-th as config(i) says, and returns their reports once
// all have finished. It fails t if any bot fails.
func playBots(t *testing.T, ctx context.Context, n int, config func(i int) client.BotConfig) []client.Report {
	t.Helper()
	reports := make([]client.Report, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			reports[i], errs[i] = client.RunBot(ctx, config(i))
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("bot %d: %v", i, err)
		}
	}
	return reports
}
