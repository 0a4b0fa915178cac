package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"tanknet/agones"
	"tanknet/agones/agonestest"
	"tanknet/client"
	"tanknet/wire"
)

// agonesGameAt starts run in process on addr with the fake sidecar sc, short Agones
// periods, requests that time out after timeout and -drain drain; it returns the log and
// run's result.
func agonesGameAt(t *testing.T, ctx context.Context, sc *agonestest.Sidecar, addr string, timeout, drain time.Duration) (*serverLog, <-chan error) {
	t.Helper()
	logs := new(serverLog)
	cfg := DefaultConfig()
	cfg.Server.Addr = addr
	cfg.Server.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	cfg.Drain = drain
	cfg.Server.RoomGrace = 0 // an empty room closes at once: the rooms counter follows it without a wait
	cfg.Agones = AgonesConfig{SDK: sc.URL(), Health: 40 * time.Millisecond, Timeout: timeout, Retry: 20 * time.Millisecond, CountEvery: 10 * time.Millisecond, RoomHold: time.Minute}
	done := make(chan error, 1)
	go func() { done <- run(ctx, cfg, nil) }()
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("tankserver's log:\n%s", logs.String())
		}
	})
	return logs, done
}

// runResult fails t unless run ended within a generous bound, and returns its error.
func runResult(t *testing.T, done <-chan error, what string) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(20 * time.Second):
		t.Fatalf("%s: run still going 20 s later", what)
		return nil
	}
}

// TestAgones_ReadyHealthCountersAllocatedShutdown plays a whole Agones life against the
// fake sidecar: Ready once the UDP socket is bound (tried again while the sidecar refuses
// it, as are counter updates), Health pings repeating, the rooms and
// players counters following joins and leaves (one player opens a room of its own),
// Allocated logged, then Shutdown from the watch stream draining the game like SIGTERM: a
// newcomer is refused, the player in play goes on until it leaves, and only then does
// tankserver tell Agones it is done.
func TestAgones_ReadyHealthCountersAllocatedShutdown(t *testing.T) {
	sc := agonestest.New(t, agones.Counter{Name: "rooms"}, agones.Counter{Name: "players"})
	var readyWhileBound atomic.Int32 // 1: the game's socket was bound at Ready; -1: it was not
	addr := freeUDPAddr(t)
	sc.OnCall(func(call string) {
		if call != "POST /ready" {
			return
		}
		pc, err := net.ListenPacket("udp", addr)
		if err == nil {
			pc.Close()
			readyWhileBound.Store(-1)
			return
		}
		readyWhileBound.Store(1)
	})
	// The sidecar refuses Ready and the players counter at first (as one starting after
	// the game does): tankserver tries again.
	sc.Fail("/ready", http.StatusServiceUnavailable)
	sc.Fail("/v1beta1/counters/players", http.StatusInternalServerError)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logs, done := agonesGameAt(t, ctx, sc, addr, 2*time.Second, time.Hour)

	sc.WaitFor(t, "Ready", func() bool { return readyWhileBound.Load() != 0 })
	if readyWhileBound.Load() != 1 {
		t.Fatal("tankserver marked itself Ready before its UDP socket was bound")
	}
	logs.waitFor(t, "could not mark the server ready; trying again")
	logs.waitFor(t, "could not update a counter")
	sc.Fail("/ready", 0)
	sc.Fail("/v1beta1/counters/players", 0)
	sc.WaitFor(t, "Ready accepted", func() bool { return sc.State() == agones.StateReady })
	logs.waitFor(t, "agones: marked ready")
	sc.WaitFor(t, "three health pings", func() bool { return sc.Count("POST /health") >= 3 })
	sc.WaitFor(t, "rooms 1 of 8", func() bool { return sc.Counter("rooms") == agones.Counter{Name: "rooms", Count: 1, Capacity: 8} })
	sc.WaitFor(t, "players 0 of 128", func() bool { return sc.Counter("players") == agones.Counter{Name: "players", Count: 0, Capacity: 128} })

	leaverCtx, leave := context.WithCancel(ctx)
	leaver := playBots(t, leaverCtx, addr, 1)
	stayerCtx, stayerLeaves := context.WithCancel(ctx)
	stayer := playBotsIn(t, stayerCtx, addr, "late-night", 1) // in a room of its own
	sc.WaitFor(t, "players 2 of 128", func() bool { return sc.Counter("players") == agones.Counter{Name: "players", Count: 2, Capacity: 128} })
	sc.WaitFor(t, "rooms 2 of 8", func() bool { return sc.Counter("rooms") == agones.Counter{Name: "rooms", Count: 2, Capacity: 8} })
	leave()
	leaver.wait()
	sc.WaitFor(t, "players back to 1", func() bool { return sc.Counter("players").Count == 1 })
	// The default room stays open, empty; the stayer's room goes on.

	// A matchmaker's allocation adds the room its match will play in (DEPLOY.md): tankserver
	// holds it while the match's players are on their way, and their room uses it.
	if !sc.Allocate(map[string]int64{"rooms": 1}) {
		t.Fatal("the fake sidecar refused the allocation")
	}
	logs.waitFor(t, "agones: allocated")
	// The watch may show tankserver's own earlier count after it lowered it, which it
	// takes for an allocation's: a room held too long errs on the side of a fuller server,
	// never an overfull one. So a count may read one above the rooms open and held.
	roomsAfterPings := func(want int64, why string) {
		t.Helper()
		pings := sc.Count("POST /health")
		sc.WaitFor(t, "three more health pings", func() bool { return sc.Count("POST /health") >= pings+3 })
		if got := sc.Counter("rooms"); got.Count < want || got.Count > want+1 {
			t.Errorf("rooms %d %s, want %d (or one more, an echo held)", got.Count, why, want)
		}
	}
	roomsAfterPings(3, "after an allocation added one to 2 open (the room held for the match)")
	stayerLeaves() // its room closes while the match is on its way: the held room stays
	stayer.wait()
	sc.WaitFor(t, "players 0", func() bool { return sc.Counter("players").Count == 0 })
	roomsAfterPings(2, "with the default room open and one held")
	matchCtx, matchEnds := context.WithCancel(ctx)
	match := playBotsIn(t, matchCtx, addr, "allocated-match", 1)
	sc.WaitFor(t, "players 1", func() bool { return sc.Counter("players").Count == 1 })
	roomsAfterPings(2, "once the match's room opened in the room held for it")

	sc.SetState(agones.StateShutdown)
	logs.waitFor(t, "draining: new players are refused")
	sc.WaitFor(t, "no room left to allocate while draining", func() bool {
		r, p := sc.Counter("rooms"), sc.Counter("players")
		return r.Capacity == r.Count && p.Capacity == p.Count
	})
	_, err := client.Dial(ctx, addr, "late", nil, 5*time.Second)
	var rej *client.RejectedError
	if !errors.As(err, &rej) || rej.Code != wire.RejectShuttingDown {
		t.Errorf("a join after Agones said Shutdown: %v, want the shutting-down Reject", err)
	}
	if n := sc.Count("POST /shutdown"); n != 0 {
		t.Errorf("tankserver called /shutdown %d times while a player was still in play", n)
	}
	matchEnds()
	match.wait()
	if err := runResult(t, done, "the last player left the drain"); err != nil {
		t.Errorf("run = %v, want a clean stop", err)
	}
	calls := sc.Calls()
	if n := sc.Count("POST /shutdown"); n != 1 || calls[len(calls)-1] != "POST /shutdown" {
		t.Errorf("the sidecar's calls end %q with %d /shutdown; want exactly one, last", calls[max(0, len(calls)-3):], n)
	}
	if !strings.Contains(logs.String(), "stopping: every player has left") {
		t.Error("the log does not say the drain ended because every player left")
	}
}

// TestAgones_TheGameGoesOnWithoutTheSidecar runs the game with a sidecar that is down and
// one that hangs: players join and keep getting snapshots while the calls fail, and the
// server still stops cleanly.
func TestAgones_TheGameGoesOnWithoutTheSidecar(t *testing.T) {
	for _, tt := range []struct {
		name    string
		breakIt func(*agonestest.Sidecar)
		sign    string // what the log says once calls have failed
	}{
		{"down", (*agonestest.Sidecar).Close, "health pings are failing"},
		{"hung", func(sc *agonestest.Sidecar) { sc.Hang(true) }, "health pings are failing"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sc := agonestest.New(t, agones.Counter{Name: "rooms"}, agones.Counter{Name: "players"})
			tt.breakIt(sc)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			addr := freeUDPAddr(t)
			logs, done := agonesGameAt(t, ctx, sc, addr, 50*time.Millisecond, 0)
			botsCtx, stopBots := context.WithCancel(ctx)
			defer stopBots()
			ps := playBots(t, botsCtx, addr, 2)
			logs.waitFor(t, tt.sign)
			logs.waitFor(t, "could not mark the server ready")
			after := time.Now()
			for deadline := time.Now().Add(10 * time.Second); ps.heardAfter(0, after) <= 0 || ps.heardAfter(1, after) <= 0; time.Sleep(5 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("the players heard no snapshot after the sidecar's calls failed")
				}
			}
			cancel()
			if err := runResult(t, done, "cancelled with the sidecar "+tt.name); err != nil {
				t.Errorf("run = %v, want a clean stop", err)
			}
			stopBots()
			ps.wait()
			if !strings.Contains(logs.String(), "could not tell Agones the server is done") {
				t.Error("the log does not say the final Shutdown failed")
			}
		})
	}
}

// TestAgones_Binary runs the real tankserver with AGONES_SDK_HTTP_PORT pointing at the fake
// sidecar: it finds the sidecar from the environment, marks itself Ready, pings Health,
// and when the GameServer turns Shutdown with no one playing it drains at once, tells
// Agones it is done and exits 0.
func TestAgones_Binary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds tankserver")
	}
	bin := buildServer(t)
	sc := agonestest.New(t, agones.Counter{Name: "rooms"}, agones.Counter{Name: "players"})
	u, err := url.Parse(sc.URL())
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(agones.EnvPort, u.Port()) // the child inherits the environment
	cmd, logs := startServer(t, bin, "-addr", freeUDPAddr(t), "-drain", "30s", "-agones-health", "100ms")
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	sc.WaitFor(t, "Ready and two health pings", func() bool { return sc.Count("POST /ready") == 1 && sc.Count("POST /health") >= 2 })
	sc.WaitFor(t, "players 0 of 128", func() bool { return sc.Counter("players") == agones.Counter{Name: "players", Capacity: 128} })
	sc.SetState(agones.StateShutdown)
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("tankserver exited with %v, want 0", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("tankserver still running 20 s after Agones said Shutdown with no one playing")
	}
	if n := sc.Count("POST /shutdown"); n != 1 {
		t.Errorf("tankserver called /shutdown %d times, want once", n)
	}
	for _, line := range []string{"running under Agones", "agones: marked ready", "draining before stopping", "stopping: every player has left", "agones: told Agones the server is done"} {
		if !strings.Contains(logs.String(), line) {
			t.Errorf("the log does not say %q", line)
		}
	}
}
