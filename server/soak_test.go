package server_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/internal/servertest"
	"tanknet/linksim"
	"tanknet/server"
)

// soakLink is yojimbo's soak profile: a second of latency with 100 ms of jitter, a quarter
// of the packets lost and a quarter duplicated, each way.
var soakLink = linksim.Link{Latency: time.Second, Jitter: 100 * time.Millisecond, Loss: 0.25, Duplicate: 0.25}

// TestSoak plays 8 bots through soakLink for TANKNET_SOAK (a duration, e.g. "3m"; `make
// soak` sets it) and checks what a server on a bad network must hold to: no bot dropped or
// failing, no drop or bad frame on the server, every input each bot's tank was credited
// with applied exactly once and in order, and goroutines and live heap back to the
// baseline afterwards. It prints a report. Without TANKNET_SOAK it is skipped.
func TestSoak(t *testing.T) {
	d, err := time.ParseDuration(os.Getenv("TANKNET_SOAK"))
	if err != nil || d <= 0 {
		t.Skip("set TANKNET_SOAK to a duration (make soak does) to run the soak")
	}
	const bots = 8
	base := measure()

	var mu sync.Mutex
	applied := map[uint32][]uint32{} // player -> move ticks applied, in order
	srv := servertest.StartObserved(t, func(c *server.Config) {
		c.MaxPlayers = bots
		c.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}, func(rec server.TickRecord) {
		mu.Lock()
		defer mu.Unlock()
		for _, a := range rec.Applied {
			applied[a.Player] = append(applied[a.Player], a.MoveTick)
		}
	})

	// Every bot stops at the same moment (however long its join took), so no session is left
	// to time out on the server while the others finish.
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	reports := make([]client.Report, bots)
	errs := make([]error, bots)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range bots {
		pc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			t.Fatal(err)
		}
		cc, err := linksim.Condition(pc, linksim.Symmetric(soakLink), uint64(i+1))
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			reports[i], errs[i] = client.RunBot(ctx, client.BotConfig{
				Addr: srv.Addr, Name: fmt.Sprintf("soak-%d", i), Seed: uint64(i + 1), // plays until ctx ends
				Frame: time.Second / 30, Options: client.DefaultOptions(), PacketConn: cc,
				DialTimeout: 30 * time.Second, // several round trips of two seconds, a quarter lost
			})
		}()
	}
	wg.Wait()
	played := time.Since(start)
	// Let the last inputs in flight land before reading the server's record.
	time.Sleep(3 * soakLink.Latency)
	st := srv.Stats()
	if err := srv.Stop(); err != nil {
		t.Errorf("server stop: %v", err)
	}

	var b strings.Builder
	fmt.Fprintf(&b, "soak: %d bots for %v through latency %v ±%v, loss %.0f%%, duplicates %.0f%% each way\n",
		bots, played.Round(time.Second), soakLink.Latency, soakLink.Jitter, 100*soakLink.Loss, 100*soakLink.Duplicate)
	fmt.Fprintf(&b, "%-8s %7s %8s %8s %9s %9s %10s %6s  %s\n", "bot", "player", "sent", "applied", "last_ack", "snapshots", "residual>0", "snaps", "outcome")
	mu.Lock()
	for i, r := range reports {
		ticks := applied[r.PlayerID]
		outcome := "played"
		if errs[i] != nil {
			outcome = errs[i].Error()
			t.Errorf("bot %d: %v", i, errs[i])
		}
		fmt.Fprintf(&b, "soak-%-3d %7d %8d %8d %9d %9d %10d %6d  %s\n",
			i, r.PlayerID, r.InputsSent, len(ticks), r.LastAck, r.Snapshots, r.ResidualNonZero, r.Snaps, outcome)
		for k, tick := range ticks { // exactly once, in order: 1, 2, 3, ...
			if tick != uint32(k+1) {
				t.Errorf("bot %d: applied move ticks %v... out of order or repeated at %d", i, ticks[max(0, k-3):k+1], k)
				break
			}
		}
		if n := len(ticks); n < int(r.LastAck) || n > r.InputsSent || n == 0 {
			t.Errorf("bot %d: %d inputs applied, want between its last ack %d and the %d it sent", i, n, r.LastAck, r.InputsSent)
		}
		if r.ResidualNonZero != 0 {
			t.Errorf("bot %d: %d reconciliations moved its prediction, want 0 with contact off", i, r.ResidualNonZero)
		}
	}
	mu.Unlock()
	fmt.Fprintf(&b, "server: joins %d, drops %d %v, leaves %d, bad frames %d, inputs applied %d, stale %d, deferred %d\n",
		st.Joins, st.Drops, st.DropsByReason, st.Leaves, st.BadFrames, st.InputsApplied, st.InputsStale, st.InputsDeferred)
	fmt.Fprintf(&b, "gate: challenges %d, admitted %d, dropped unvalidated %d, wrong conversation %d, bad cookies %d\n",
		st.Gate.Challenges, st.Gate.Admitted, st.Gate.Unvalidated, st.Gate.WrongConv, st.Gate.BadCookies)
	if st.Joins != bots || st.Drops != 0 || st.BadFrames != 0 {
		t.Errorf("server: %d joins, %d drops %v, %d bad frames; want %d joins and nothing dropped", st.Joins, st.Drops, st.DropsByReason, st.BadFrames, bots)
	}
	end := checkSettles(t, base)
	fmt.Fprintf(&b, "process: goroutines %d -> %d, live heap %d KiB -> %d KiB (after GC)\n", base.goroutines, end.goroutines, base.heap>>10, end.heap>>10)
	t.Log("\n" + b.String())
}
