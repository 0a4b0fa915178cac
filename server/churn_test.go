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

// churnStall is how long the churn test waits for the server to seat one more churner
// before it calls the churn stalled. Quiet, the server seats 600 in about ten seconds; a
// machine busy with other tests and busy loops has taken a minute, seating all the while.
const churnStall = 15 * time.Second

// TestChurn_JoinsAndLeavesDropNoHonestPlayer: while an honest bot plays (and once freezes
// for 300 ms, like a frame hitch), 48 churners join and leave as fast as they can, aiming
// at 500 a second, until the server has seated 600 of them. The bot must play on
// undisturbed: roster changes reach it coalesced, one update per tick, however many there
// are. Every churner's Hello the server gets must be answered, with a seat or a Reject (a
// server that cannot keep up refuses joins with REJECT_CODE_BUSY rather than queue them
// without end), and every seat it gives must come free again.
//
// The churn is counted in seats, not seconds: how much of it a machine seats in a given
// time is a capacity, measured by BenchmarkChurn_JoinsAndLeaves. The test calls the churn
// stalled only when churnStall passes without a seat.
func TestChurn_JoinsAndLeavesDropNoHonestPlayer(t *testing.T) {
	const churners, target, seats = 48, 500, 600
	addr, srv := startServer(t, func(c *server.Config) {
		c.MaxPlayers = 64
		c.Logger = quietLogger()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a bound on the whole; a stall fails it sooner
	defer cancel()

	botCtx, stopBot := context.WithCancel(ctx)
	defer stopBot()
	in := make(chan struct{}) // closed at the bot's first frame
	var midChurn atomic.Bool  // the server has seated half the churn
	hitched := false
	done := goBot(botCtx, client.BotConfig{
		Addr: addr, Name: "honest", Seed: 3, Options: client.DefaultOptions(),
		OnFrame: func(now time.Time, g *client.Game) {
			select {
			case <-in:
			default:
				close(in)
			}
			if !hitched && midChurn.Load() {
				hitched = true
				time.Sleep(300 * time.Millisecond)
			}
		},
	})
	select {
	case <-in:
	case res := <-done:
		t.Fatalf("the honest bot never played: %v", res.err)
	}

	// A stall ends the churn at once: churners stuck dialing a server that answers nothing
	// would otherwise try until the whole run's bound.
	churnCtx, stopChurn := context.WithCancel(ctx)
	defer stopChurn()
	start := time.Now()
	var seated uint64
	lastSeat, stalled := start, false
	hellos, failed := churn(churnCtx, addr, churners, target, func() bool {
		joins := srv.Stats().Joins - 1 // the bot's is not churn
		midChurn.Store(joins >= seats/2)
		if joins > seated {
			seated, lastSeat = joins, time.Now()
		}
		if stalled = time.Since(lastSeat) > churnStall; stalled {
			stopChurn()
		}
		return joins >= seats || stalled
	})
	took := time.Since(start)
	switch {
	case stalled:
		t.Fatalf("the server seated %d churners in %v, none in the last %v, want %d: churn stalled",
			srv.Stats().Joins-1, took.Round(time.Second), churnStall, seats)
	case ctx.Err() != nil:
		t.Fatalf("the server seated %d churners in %v, still seating, want %d: churn too slow", srv.Stats().Joins-1, took.Round(time.Second), seats)
	}
	stopBot()
	res := <-done
	// Churners close without waiting for an answer: the server settles their last Hellos
	// after they are gone. Every conversation the gate admitted must end answered: seated,
	// refused (busy or full; bad_hello for sessions that never carried a Hello: a dial the
	// churner gave up on, a closed churner's port taken by the next one's socket) or evicted
	// as a silent handshake. A churner's Hello the server never got is not counted: one the
	// kernel dropped (the server's socket full while a busy machine starves it) is not sent
	// again, since a churner that closes before any answer sends what it had once.
	answered := func(st server.Stats) uint64 {
		return st.Joins - 1 + st.Rejects - st.RejectsByCode["bad_hello"] // the bot's join is not churn
	}
	settled := func(st server.Stats) bool {
		return st.Joins+st.Rejects+st.Evicted == st.Gate.Admitted && answered(st) <= hellos &&
			st.Players == 0 && st.Handshaking == 0
	}
	st := srv.Stats()
	for deadline := time.Now().Add(10 * time.Second); !settled(st); st = srv.Stats() {
		if time.Now().After(deadline) {
			t.Fatalf("the gate admitted %d conversations, %d seated, %d refused and %d evicted (want every one answered, and every seat free); %d churn Hellos answered of %d sent; server stats %+v",
				st.Gate.Admitted, st.Joins, st.Rejects, st.Evicted, answered(st), hellos, st)
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Logf("%d churn Hellos sent (%d dials failed) in %v; the server answered %d, seated %d and refused %d %v; honest bot: %d snapshots, hitched %v",
		hellos, failed, took.Round(time.Millisecond), answered(st), st.Joins-1, st.Rejects, st.RejectsByCode, res.rep.Snapshots, hitched)
	if res.err != nil {
		t.Fatalf("honest bot during the churn: %v", res.err)
	}
	if res.rep.ResidualNonZero != 0 || res.rep.Snaps != 0 || !hitched {
		t.Errorf("honest bot %+v (hitched %v): want it playing undisturbed through its hitch", res.rep, hitched)
	}
	if st.DropsByReason["cannot_keep_up"] != 0 || st.Leaves+st.Drops != st.Joins {
		t.Errorf("server stats %+v: want no player dropped for its queues and every seat freed", st)
	}
}

// churn has churners goroutines join and leave addr, a Hello and a Goodbye back to back
// (the cheapest join and leave), at most target times a second in all, until enough
// (asked ten times a second) reports true or ctx ends. It returns how many Hellos were sent and how many connect
// handshakes failed, once every churner has closed its connection.
func churn(ctx context.Context, addr string, churners, target int, enough func() bool) (hellos, failed uint64) {
	var sent, failures atomic.Uint64
	tokens := make(chan struct{}, target)
	go func() { // target tokens a second, dealt every 10 ms
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		defer close(tokens)
		for i := 0; ctx.Err() == nil && (i%10 != 0 || !enough()); i++ {
			<-tick.C
			for range target / 100 {
				select {
				case tokens <- struct{}{}:
				default:
				}
			}
		}
	}()
	var wg sync.WaitGroup
	for range churners {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range tokens {
				conn, err := transport.DialContext(ctx, addr, nil)
				if err != nil {
					failures.Add(1) // no Hello sent
					continue
				}
				if conn.Send(hello(transport.ProtocolVersion)) == nil {
					sent.Add(1)
					_ = conn.Send(goodbye("churn"))
				}
				conn.Close()
			}
		}()
	}
	wg.Wait()
	return sent.Load(), failures.Load()
}

// quietLogger discards the server's log: tests with thousands of joins would fill the test
// log (which is kept in memory until the test ends).
func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
