package server_test

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tanknet/client"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/server"
	"tanknet/transport"
)

func goodbye(reason string) *tankv1.ClientMessage {
	return &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Goodbye{Goodbye: &tankv1.Goodbye{Reason: reason}}}
}

// TestChurn_JoinsAndLeavesDropNoHonestPlayer: while an honest bot plays (and once freezes
// for 300 ms, like a frame hitch), 48 churners join and leave as fast as they can, aiming
// at 500 a second, for three seconds. The bot must play on undisturbed: roster changes
// reach it coalesced, one update per tick, however many there are.
func TestChurn_JoinsAndLeavesDropNoHonestPlayer(t *testing.T) {
	const churners, target, churnFor = 48, 500, 3 * time.Second
	addr, srv := startServer(t, func(c *server.Config) {
		c.MaxPlayers = 64
		c.Logger = quietLogger()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	hitched := false
	done := goBot(ctx, client.BotConfig{
		Addr: addr, Name: "honest", Seed: 3, Duration: churnFor + 2*time.Second, Options: client.DefaultOptions(),
		OnFrame: func(now time.Time, g *client.Game) {
			if !hitched && g.Stats().Snapshots > 40 { // two seconds in, mid-churn
				hitched = true
				time.Sleep(300 * time.Millisecond)
			}
		},
	})

	time.Sleep(500 * time.Millisecond) // the bot is in
	var cycles, failures atomic.Int64  // churn cycles sent, and those that could not connect
	tokens := make(chan struct{}, target)
	stop := time.After(churnFor)
	go func() { // 500 tokens a second, dealt every 10 ms
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		defer close(tokens)
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				for range target / 100 {
					select {
					case tokens <- struct{}{}:
					default:
					}
				}
			}
		}
	}()
	start := time.Now()
	var wg sync.WaitGroup
	for range churners {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range tokens { // hello and goodbye back to back: the cheapest join and leave
				conn, err := transport.DialContext(ctx, addr, nil)
				if err != nil {
					failures.Add(1)
					continue
				}
				if conn.Send(hello(transport.ProtocolVersion)) != nil || conn.Send(goodbye("churn")) != nil {
					failures.Add(1)
				}
				conn.Close()
				cycles.Add(1)
			}
		}()
	}
	wg.Wait()
	took := time.Since(start)
	res := <-done
	st := srv.Stats()
	t.Logf("%d churn cycles sent (%d failed) in %v; the server seated %.0f and saw %.0f leave per second; honest bot: %d snapshots, hitched %v",
		cycles.Load(), failures.Load(), took.Round(time.Millisecond), float64(st.Joins)/took.Seconds(),
		float64(st.Leaves+st.Drops)/took.Seconds(), res.rep.Snapshots, hitched)
	if res.err != nil {
		t.Fatalf("honest bot during the churn: %v", res.err)
	}
	if res.rep.ResidualNonZero != 0 || res.rep.Snaps != 0 || !hitched {
		t.Errorf("honest bot %+v (hitched %v): want it playing undisturbed through its hitch", res.rep, hitched)
	}
	if st.DropsByReason["cannot_keep_up"] != 0 || st.Joins < uint64(cycles.Load())/2 {
		t.Errorf("server stats %+v: want no player dropped for its queues and most churn seated", st)
	}
}

// quietLogger discards the server's log: tests with thousands of joins would fill the test
// log (which is kept in memory until the test ends).
func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
