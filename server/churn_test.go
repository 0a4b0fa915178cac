package server_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"strconv"
	"strings"
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
// are. Every churner's Hello must be answered, with a seat or a Reject (a server that
// cannot keep up refuses joins with REJECT_CODE_BUSY rather than queue them without end),
// but one the kernel dropped before the server could read it, and every seat it gives must
// come free again.
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
	// after they are gone. Each Hello the server gets is answered by a seat, or a Reject
	// saying it is busy or full. Sessions that never carried a Hello end in bad_hello: not
	// counted. A Hello the kernel dropped never reaches the server (its socket full while a
	// busy machine starves it), and a churner that closes before any answer never sends it
	// again: at most as many Hellos go unanswered as the server's socket dropped datagrams.
	answered := func(st server.Stats) uint64 {
		return st.Joins - 1 + st.Rejects - st.RejectsByCode["bad_hello"] // the bot's join is not churn
	}
	dropped := func() uint64 { n, _ := socketDrops(addr); return n }
	st := srv.Stats()
	for deadline := time.Now().Add(10 * time.Second); answered(st) > hellos || answered(st)+dropped() < hellos || st.Players != 0 || st.Handshaking != 0; st = srv.Stats() {
		if time.Now().After(deadline) {
			t.Fatalf("%d churn Hellos answered by a seat or a busy or full Reject, want all %d but at most the %d datagrams the server's socket dropped, and every seat free; server stats %+v",
				answered(st), hellos, dropped(), st)
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Logf("%d churn Hellos sent (%d dials failed) in %v; the server answered %d, seated %d and refused %d %v; its socket dropped %d datagrams; honest bot: %d snapshots, hitched %v",
		hellos, failed, took.Round(time.Millisecond), answered(st), st.Joins-1, st.Rejects, st.RejectsByCode, dropped(), res.rep.Snapshots, hitched)
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

// socketDrops returns how many datagrams the kernel dropped at the UDP socket bound to addr
// (its receive buffer full), from Linux's /proc/net/udp and udp6, and whether it found the
// socket there; 0 and false elsewhere.
func socketDrops(addr string) (uint64, bool) {
	ap, err := netip.ParseAddrPort(addr)
	if err != nil {
		return 0, false
	}
	port := fmt.Sprintf(":%04X", ap.Port())
	var drops uint64
	found := false
	for _, table := range []string{"/proc/net/udp", "/proc/net/udp6"} {
		b, err := os.ReadFile(table)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n")[1:] {
			f := strings.Fields(line)
			if len(f) < 13 || !strings.HasSuffix(f[1], port) {
				continue
			}
			if n, err := strconv.ParseUint(f[len(f)-1], 10, 64); err == nil {
				drops += n
				found = true
			}
		}
	}
	return drops, found
}

func TestSocketDrops_CountsWhatAFullSocketDropped(t *testing.T) {
	if _, err := os.Stat("/proc/net/udp"); err != nil {
		t.Skip("no /proc/net/udp: not Linux")
	}
	sink, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Close()
	if err := sink.SetReadBuffer(1); err != nil { // the kernel's least: a few datagrams
		t.Fatal(err)
	}
	addr := sink.LocalAddr().String()
	if n, ok := socketDrops(addr); !ok || n != 0 {
		t.Fatalf("socketDrops(%s) of a fresh socket = %d, %v; want 0, true", addr, n, ok)
	}
	src, err := net.DialUDP("udp4", nil, sink.LocalAddr().(*net.UDPAddr))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	payload := make([]byte, 1000)
	for range 200 { // nobody reads: all but the first few are dropped
		if _, err := src.Write(payload); err != nil {
			t.Fatal(err)
		}
	}
	if n, ok := socketDrops(addr); !ok || n < 100 {
		t.Errorf("socketDrops(%s) after 200 datagrams to a socket nobody reads = %d, %v; want most of them, true", addr, n, ok)
	}
}
