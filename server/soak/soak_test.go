package soak_test

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"runtime"
	"slices"
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

// soakPlan says who plays a soak: steadyRooms rooms of steadyBots play the whole run;
// beside them, every churnEvery, churnBots new bots open a room of their own, play
// churnPlay and leave, and the room closes (the server's room grace is churnGrace).
type soakPlan struct {
	steadyRooms, steadyBots, churnBots int
}

const (
	churnEvery = 30 * time.Second
	churnPlay  = 10 * time.Second
	churnGrace = 2 * time.Second
)

// fullSoak is what `make soak` plays: 24 steady bots and rooms of 8 churning.
var fullSoak = soakPlan{steadyRooms: 3, steadyBots: 8, churnBots: 8}

// minuteSoak is what `make test` plays: the same shape at half the bots, so the whole
// process needs about a seventh of a core with the race detector, and keeps up on a 2-core
// machine that three other processes keep busy.
var minuteSoak = soakPlan{steadyRooms: 3, steadyBots: 4, churnBots: 4}

// TestSoak plays fullSoak through soakLink for TANKNET_SOAK (a duration, e.g. "10m"; `make
// soak` sets it): see soak. Without TANKNET_SOAK it is skipped.
func TestSoak(t *testing.T) {
	d, err := time.ParseDuration(os.Getenv("TANKNET_SOAK"))
	if err != nil || d <= 0 {
		t.Skip("set TANKNET_SOAK to a duration (make soak does) to run the soak")
	}
	soak(t, fullSoak, d)
}

// TestSoak_Minute is the soak for one minute, two rooms opening and closing, with half the
// bots (minuteSoak): what `make test` runs of it.
func TestSoak_Minute(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 16 bots for a minute")
	}
	soak(t, minuteSoak, time.Minute)
}

// soak plays plan's steady rooms for d through soakLink while churn rooms open and close, and
// checks what a server on a bad network must hold to: no bot dropped or failing, no drop or
// bad frame on the server, every input each bot's tank was credited with applied exactly
// once and in order, every churn room closed once its bots left, and goroutines and live
// heap back to the baseline afterwards. It logs a report with the start, peak and end of
// both.
func soak(t *testing.T, plan soakPlan, d time.Duration) {
	base := servertest.MeasureUsage()
	var mu sync.Mutex
	applied := map[uint32][]uint32{} // player -> move ticks applied, in order
	drops := &dropLog{}
	srv := servertest.StartObserved(t, func(c *server.Config) {
		c.MaxPlayers, c.RoomGrace = max(plan.steadyBots, plan.churnBots), churnGrace
		c.MaxRooms = plan.steadyRooms + 2                           // a closing churn room may overlap the next
		c.MaxRoomsPerAddress, c.ExtraRooms = c.MaxRooms, c.MaxRooms // every bot comes from 127.0.0.1
		c.Logger = slog.New(drops)
	}, func(rec server.TickRecord) {
		mu.Lock()
		defer mu.Unlock()
		for _, a := range rec.Applied {
			applied[a.Player] = append(applied[a.Player], a.MoveTick)
		}
	})
	peak := watchPeak(srv)

	// The steady bots stop at the same moment (however long their join took), so no session
	// is left to time out on the server while the others finish.
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var bots []*soakBot
	var wg sync.WaitGroup
	play := func(b *soakBot, ctx context.Context, delay, dur time.Duration) {
		bots = append(bots, b)
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case <-time.After(delay):
			case <-ctx.Done():
				b.err = fmt.Errorf("the run ended before its turn")
				return
			}
			b.play(t, srv.Addr, ctx, dur)
		}()
	}
	start := time.Now()
	for r := range plan.steadyRooms {
		for i := range plan.steadyBots {
			play(&soakBot{name: fmt.Sprintf("steady-%d-%d", r+1, i), room: soakRoom("steady", r), seed: uint64(len(bots) + 1)}, ctx, 0, 0)
		}
	}
	// A churn room's bots join at its turn (a few seconds through this link) and play
	// churnPlay; leaving takes up to the idle timeout when the Goodbye is lost, then the
	// grace. The last turn leaves time for all of it before the steady bots stop.
	var churned []string
	for k := 0; time.Duration(k)*churnEvery+churnPlay+15*time.Second <= d; k++ {
		room := soakRoom("churn", k+1)
		churned = append(churned, room)
		for i := range plan.churnBots {
			play(&soakBot{name: fmt.Sprintf("%s-%d", room, i), room: room, seed: uint64(len(bots) + 1)},
				context.Background(), time.Duration(k)*churnEvery, churnPlay)
		}
	}
	wg.Wait()
	played := time.Since(start)
	// The steady bots have just stopped: their Goodbyes are a second away at least, so their
	// rooms are all still open. Read them now; waiting below for a slow churn room to close
	// (a loaded machine) can outlast a steady room's own closing.
	steadyOpen := roomNames(srv.Stats().Rooms)
	// Let the last inputs in flight land, and the churn rooms close: a lost Goodbye leaves
	// a bot to its idle timeout, then the room its grace.
	for deadline := time.Now().Add(3*soakLink.Latency + 30*time.Second); openChurn(srv) > 0 && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
	}
	time.Sleep(3 * soakLink.Latency)
	st := srv.Stats()
	seen := peak.stop()
	if err := srv.Stop(); err != nil {
		t.Errorf("server stop: %v", err)
	}

	var b strings.Builder
	fmt.Fprintf(&b, "soak: %d steady bots in %d rooms for %v, and %d churn rooms of %d bots (one every %v, playing %v), through latency %v ±%v, loss %.0f%%, duplicates %.0f%% each way\n",
		plan.steadyRooms*plan.steadyBots, plan.steadyRooms, played.Round(time.Second), len(churned), plan.churnBots, churnEvery, churnPlay,
		soakLink.Latency, soakLink.Jitter, 100*soakLink.Loss, 100*soakLink.Duplicate)
	fmt.Fprintf(&b, "%-16s %7s %8s %8s %9s %9s %10s %6s  %s\n", "bot", "player", "sent", "applied", "last_ack", "snapshots", "residual>0", "snaps", "outcome")
	mu.Lock()
	for _, bot := range bots {
		bot.check(t, &b, applied[bot.report.PlayerID])
	}
	applied = nil // the record of every applied input is the test's, not the server's: not in the heap measured below
	mu.Unlock()
	fmt.Fprintf(&b, "server: joins %d, drops %d %v, leaves %d, bad frames %d, inputs applied %d, stale %d, deferred %d\n",
		st.Joins, st.Drops, st.DropsByReason, st.Leaves, st.BadFrames, st.InputsApplied, st.InputsStale, st.InputsDeferred)
	fmt.Fprintf(&b, "rooms: open as the steady bots stopped %v, at the end %v; churn rooms seen open %v\n", steadyOpen, roomNames(st.Rooms), seen.rooms)
	fmt.Fprintf(&b, "gate: challenges %d, admitted %d, dropped unvalidated %d, wrong conversation %d, bad cookies %d\n",
		st.Gate.Challenges, st.Gate.Admitted, st.Gate.Unvalidated, st.Gate.WrongConv, st.Gate.BadCookies)
	if st.Joins != uint64(len(bots)) || st.BadFrames != 0 {
		t.Errorf("server: %d joins, %d bad frames; want %d joins and no bad frame", st.Joins, st.BadFrames, len(bots))
	}
	// A bot's Goodbye travels on the stream, behind whatever of it was lost: with a quarter
	// of the packets lost, it is almost always stuck there when the bot closes, and the
	// server sees the bot leave by its idle timeout, a drop. Only those may be dropped.
	late := drops.check(t, bots)
	fmt.Fprintf(&b, "drops: %d, each a bot that had already left (its Goodbye stuck behind a lost segment; the server timed it out)\n", late)
	if open := roomNames(st.Rooms); slices.ContainsFunc(open, func(r string) bool { return strings.HasPrefix(r, "churn") }) {
		t.Errorf("rooms open at the end: %v; want every churn room closed", open)
	}
	for r := range plan.steadyRooms {
		if name := cmp.Or(soakRoom("steady", r), "default"); !slices.Contains(steadyOpen, name) {
			t.Errorf("rooms open as the steady bots stopped: %v; want each steady room among them", steadyOpen)
			break
		}
	}
	if !slices.Equal(seen.rooms, churned) {
		t.Errorf("churn rooms seen open %v, want each of %v", seen.rooms, churned)
	}
	end := servertest.CheckSettles(t, base)
	fmt.Fprintf(&b, "process: goroutines %d -> peak %d -> %d, live heap %d KiB -> peak %d KiB -> %d KiB (start and end after GC)\n",
		base.Goroutines, seen.goroutines, end.Goroutines, base.Heap>>10, seen.heap>>10, end.Heap>>10)
	t.Log("\n" + b.String())
}

// soakRoom names a soak's room: the first steady one is the default room.
func soakRoom(kind string, n int) string {
	if kind == "steady" && n == 0 {
		return ""
	}
	return fmt.Sprintf("%s-%d", kind, n)
}

// soakBot is one bot of a soak: where it plays and how it went.
type soakBot struct {
	name, room string
	seed       uint64
	report     client.Report
	err        error
	ended      time.Time // when RunBot returned: the bot had said Goodbye and closed
}

// play runs the bot behind soakLink until ctx ends, or for dur if not zero.
func (b *soakBot) play(t *testing.T, addr string, ctx context.Context, dur time.Duration) {
	pc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		b.err = err
		return
	}
	cc, err := linksim.Condition(pc, linksim.Symmetric(soakLink), b.seed)
	if err != nil {
		pc.Close()
		b.err = err
		return
	}
	defer func() { b.ended = time.Now() }()
	b.report, b.err = client.RunBot(ctx, client.BotConfig{
		Addr: addr, Name: b.name, Room: b.room, Seed: b.seed, Duration: dur,
		Frame: time.Second / 20, Options: client.DefaultOptions(), PacketConn: cc,
		DialTimeout: 30 * time.Second, // several round trips of two seconds, a quarter lost
	})
}

// check writes the bot's row and checks its inputs were applied once each, in order.
func (b *soakBot) check(t *testing.T, w io.Writer, ticks []uint32) {
	t.Helper()
	r := b.report
	outcome := "played"
	if b.err != nil {
		outcome = b.err.Error()
		t.Errorf("bot %s: %v", b.name, b.err)
	}
	fmt.Fprintf(w, "%-16s %7d %8d %8d %9d %9d %10d %6d  %s\n",
		b.name, r.PlayerID, r.InputsSent, len(ticks), r.LastAck, r.Snapshots, r.ResidualNonZero, r.Snaps, outcome)
	for k, tick := range ticks { // exactly once, in order: 1, 2, 3, ...
		if tick != uint32(k+1) {
			t.Errorf("bot %s: applied move ticks %v... out of order or repeated at %d", b.name, ticks[max(0, k-3):k+1], k)
			break
		}
	}
	if n := len(ticks); n < int(r.LastAck) || n > r.InputsSent || n == 0 {
		t.Errorf("bot %s: %d inputs applied, want between its last ack %d and the %d it sent", b.name, n, r.LastAck, r.InputsSent)
	}
	if r.ResidualNonZero != 0 || r.PendingDropped != 0 {
		t.Errorf("bot %s: %d reconciliations moved its prediction and %d inputs were forgotten unacknowledged; want 0 of both with contact off",
			b.name, r.ResidualNonZero, r.PendingDropped)
	}
	if want := b.room; want != "" && r.Room != want {
		t.Errorf("bot %s: seated in room %q, want %q", b.name, r.Room, want)
	}
}

// dropLog is the server's log handler in a soak: it keeps every "dropping player" line,
// with its time, player and reason, and drops the rest.
type dropLog struct {
	mu    sync.Mutex
	drops []soakDrop
}

type soakDrop struct {
	at     time.Time
	player uint32
	reason string
}

func (l *dropLog) Enabled(context.Context, slog.Level) bool { return true }
func (l *dropLog) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *dropLog) WithGroup(string) slog.Handler            { return l }
func (l *dropLog) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "dropping player" {
		return nil
	}
	d := soakDrop{at: r.Time}
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "player":
			d.player = uint32(a.Value.Uint64())
		case "reason":
			d.reason = a.Value.String()
		}
		return true
	})
	l.mu.Lock()
	l.drops = append(l.drops, d)
	l.mu.Unlock()
	return nil
}

// check fails the test for every drop of a bot still playing, or for another reason than
// the idle timeout, and returns how many drops there were.
func (l *dropLog) check(t *testing.T, bots []*soakBot) int {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, d := range l.drops {
		i := slices.IndexFunc(bots, func(b *soakBot) bool { return b.report.PlayerID == d.player })
		switch {
		case i < 0:
			t.Errorf("player %d dropped (%s), and no bot has that id", d.player, d.reason)
		case bots[i].ended.IsZero() || d.at.Before(bots[i].ended) || !strings.HasPrefix(d.reason, "timed out"):
			t.Errorf("bot %s dropped while it played, or not for silence after leaving: %s", bots[i].name, d.reason)
		}
	}
	return len(l.drops)
}

// openChurn counts the churn rooms open on srv.
func openChurn(srv *servertest.Server) int {
	n := 0
	for _, r := range roomNames(srv.Stats().Rooms) {
		if strings.HasPrefix(r, "churn") {
			n++
		}
	}
	return n
}

func roomNames(rooms []server.RoomStats) []string {
	var out []string
	for _, r := range rooms {
		out = append(out, r.Name)
	}
	return out
}

// peakWatch samples the process's goroutines and live heap, and the server's churn rooms,
// every 250 ms until stop.
type peakWatch struct {
	done chan struct{}
	out  chan peakSeen
}

// peakSeen is what a peakWatch saw: the most goroutines and heap (not collected first) at
// one sample, and the churn rooms in the order they were first open.
type peakSeen struct {
	goroutines int
	heap       uint64
	rooms      []string
}

// watchPeak starts watching the process and srv.
func watchPeak(srv *servertest.Server) *peakWatch {
	p := &peakWatch{done: make(chan struct{}), out: make(chan peakSeen, 1)}
	go p.run(srv)
	return p
}

func (p *peakWatch) run(srv *servertest.Server) {
	var seen peakSeen
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		seen.goroutines, seen.heap = max(seen.goroutines, runtime.NumGoroutine()), max(seen.heap, ms.HeapAlloc)
		for _, r := range roomNames(srv.Stats().Rooms) {
			if strings.HasPrefix(r, "churn") && !slices.Contains(seen.rooms, r) {
				seen.rooms = append(seen.rooms, r)
			}
		}
		select {
		case <-p.done:
			p.out <- seen
			return
		case <-tick.C:
		}
	}
}

func (p *peakWatch) stop() peakSeen {
	close(p.done)
	return <-p.out
}
