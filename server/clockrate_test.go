package server_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/internal/servertest"
	"tanknet/server"
	"tanknet/server/recording"
)

// tickLog keeps, per phase of a test, the wall time and server time of every tick.
type tickLog struct {
	mu     sync.Mutex
	phase  atomic.Int32
	wall   [3][]time.Time
	server [3][]time.Duration
}

func (l *tickLog) observe(r server.TickRecord) {
	l.mu.Lock()
	defer l.mu.Unlock()
	p := l.phase.Load()
	l.wall[p] = append(l.wall[p], time.Now())
	l.server[p] = append(l.server[p], r.Now)
}

// ticks returns how many ticks phase p has seen so far.
func (l *tickLog) ticks(p int) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.wall[p])
}

// gaps returns the median wall time and the median server time between two ticks of phase
// p, leaving out its first two ticks (the ticker takes up the new rate at the first).
func (l *tickLog) gaps(p int) (wall, srv time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var ws, ss []time.Duration
	for i := 3; i < len(l.wall[p]); i++ {
		ws = append(ws, l.wall[p][i].Sub(l.wall[p][i-1]))
		ss = append(ss, l.server[p][i]-l.server[p][i-1])
	}
	if len(ws) == 0 {
		return 0, 0
	}
	slices.Sort(ws)
	slices.Sort(ss)
	return ws[len(ws)/2], ss[len(ss)/2]
}

// TestClockRate_SlowMotion runs a server and two bots on one clock at real time, at a
// quarter, and at real time again: at a quarter each tick takes about four times the wall
// time yet still 50 ms of server time, the bots replay exactly, and the server's recording of
// the whole run verifies exact. Medians and a ratio, not wall-clock thresholds: a loaded
// machine makes every tick late, not the slow ones early.
func TestClockRate_SlowMotion(t *testing.T) {
	var log tickLog
	var rec *recording.Recorder
	var out bytes.Buffer
	srv := servertest.StartObserved(t, func(c *server.Config) {
		rec = recording.NewRecorder(&out, *c, 0, slog.New(slog.NewTextHandler(io.Discard, nil)))
	}, func(r server.TickRecord) {
		log.observe(r)
		rec.Tick(r)
	})
	clock := client.NewClock(time.Now())
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var bots []<-chan botResult
	for i := range 2 {
		bots = append(bots, goBot(ctx, client.BotConfig{Addr: srv.Addr, Name: "slow", Seed: uint64(i + 1),
			Options: client.DefaultOptions(), Clock: clock}))
	}
	// waitTicks waits for phase p to see n ticks, for at most a minute.
	waitTicks := func(p, n int) {
		t.Helper()
		for deadline := time.Now().Add(time.Minute); log.ticks(p) < n; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("phase %d: %d ticks in a minute, want %d", p, log.ticks(p), n)
			}
		}
	}
	setRate := func(p int, rate float64) {
		now := time.Now()
		srv.SetClockRate(rate)
		clock.SetRate(now, rate)
		log.phase.Store(int32(p))
	}
	waitTicks(0, 30)
	setRate(1, 0.25)
	waitTicks(1, 16)
	if got := srv.ClockRate(); got != 0.25 {
		t.Errorf("ClockRate %v in slow motion, want 0.25", got)
	}
	setRate(2, 1)
	waitTicks(2, 30)
	cancel()
	for i, b := range bots {
		res := <-b
		if res.err != nil {
			t.Fatalf("bot %d: %v", i, res.err)
		}
		if res.rep.ResidualNonZero != 0 || res.rep.Reconciliations < 20 {
			t.Errorf("bot %d: %d reconciliations, %d with a residual; want many, none with a residual", i, res.rep.Reconciliations, res.rep.ResidualNonZero)
		}
	}

	normal, normalServer := log.gaps(0)
	slow, slowServer := log.gaps(1)
	after, afterServer := log.gaps(2)
	t.Logf("median tick gap: wall %v / %v / %v, server time %v / %v / %v", normal, slow, after, normalServer, slowServer, afterServer)
	if slow < 3*normal || slow < 3*after {
		t.Errorf("a tick at a quarter takes %v of wall time, at real time %v before and %v after: want about four times as long", slow, normal, after)
	}
	for _, g := range []time.Duration{normalServer, slowServer, afterServer} {
		if g < 40*time.Millisecond || g > 60*time.Millisecond {
			t.Errorf("median server time between ticks %v (real, quarter, real: %v %v %v), want 50 ms at every rate", g, normalServer, slowServer, afterServer)
		}
	}
	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	rep, err := recording.Verify(&out)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Exact() || rep.Ticks < 76 {
		t.Errorf("the recording made through slow motion: %v, want exact over every tick", rep)
	}
}
