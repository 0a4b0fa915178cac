package sim

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"tanknet/client"
	"tanknet/internal/pause"
	"tanknet/linksim"
	"tanknet/netcode"
	"tanknet/server"
	"tanknet/transport"
	"tanknet/wire"
)

// warmup is how long after the last bot's first frame measurement starts: the receive
// timeline needs its 100 ms delay to fill and the adaptive one a second or so for its
// offset and jitter estimates. Runs shorter than four warm-ups warm up a quarter of their
// length instead.
const warmup = time.Second

// allocTicks is how many synthetic ticks allocs_per_tick is measured over.
const allocTicks = 200

// runSpec is one measured run: the config with its profile and timeline resolved.
type runSpec struct {
	cfg     Config
	profile string // preset name, or "custom"
	cond    linksim.Conditions
	interp  string // "receive" or "adaptive"
	lane    wire.Lane
	groups  []groupSpec // bots on networks of their own (Config.Groups); cond is then unused
}

// newSpec resolves cfg's profile, timeline and lane for a run of preset name with interp
// on lane laneName.
func newSpec(cfg Config, name, interp, laneName string) (runSpec, error) {
	cond, err := cfg.conditions(name)
	if err != nil {
		return runSpec{}, err
	}
	if _, err := timeline(interp); err != nil {
		return runSpec{}, err
	}
	l, err := lane(laneName)
	if err != nil {
		return runSpec{}, err
	}
	s := runSpec{cfg: cfg, profile: name, cond: cond, interp: interp, lane: l}
	if len(cfg.Groups) > 0 {
		if s.groups, err = cfg.resolveGroups(); err != nil {
			return runSpec{}, err
		}
		s.profile, s.cond = groupsLabel(s.groups), linksim.Conditions{}
	}
	return s, nil
}

// label names the run in progress lines and plot files, e.g. "wifi-bad/datagram/adaptive";
// a run with the input buffer off says so at the end ("…/adaptive/buffer-off").
func (s runSpec) label() string {
	l := s.profile + "/" + s.lane.String() + "/" + s.interp
	if s.cfg.InputBuffer == "off" {
		l += "/buffer-off"
	}
	return l
}

// botRun is what one bot left behind.
type botRun struct {
	report   client.Report
	probe    *probe
	up, down *transport.CountingConn // above the conditioner (what the bot wrote) and below it (what the server sent)
	err      error
	// busyRetries counts the joins the server refused as busy before the bot got in: each
	// made it start a second or two later, and the measured window shorter (setWindow).
	busyRetries int
}

// runData is everything one run measured, for the report and the plots.
type runData struct {
	spec          runSpec
	start         time.Time
	bots          []botRun
	truth         *history // nil against an external server
	room          string   // a room's own report (roomReports): its name; "" for the whole run
	windowStart   time.Duration
	windowEnd     time.Duration
	allocsPerTick *float64
	watch         *serverWatch // nil against an external server without -server-metrics
	notes         []string
}

// simulate plays one run: an in-process server (unless cfg.Server names one), cfg.Bots bots
// each behind its own link conditioner, and the measurements taken along the way.
func simulate(ctx context.Context, spec runSpec) (*runData, error) {
	cfg := spec.cfg
	d := &runData{spec: spec, start: time.Now()}
	addr := cfg.Server
	var stopServer func() error
	if addr == "" {
		d.truth = newHistory(cfg.Duration + 10*time.Second)       // joining takes up to 5 s; this server seats every bot, none refused as busy
		d.truth.contact.arena, _ = netcode.ArenaByName(cfg.Arena) // validated by Config.Validate
		var srv *server.Server
		var err error
		if addr, srv, stopServer, err = startServer(ctx, spec, d.truth); err != nil {
			return nil, err
		}
		d.watch = watchInProcess(srv)
		d.notes = append(d.notes, "in-process server: it shares the process with the bots, so server_cpu_cores is null (run a separate tankserver -metrics ADDR and pass -server and -server-metrics)")
	} else {
		d.notes = append(d.notes, "external server: no ground truth, so remote_error, remote_playback_error, remote_delay_ms, remote_delay_ratio, server_tick_ms and allocs_per_tick are null")
		if cfg.ServerMetrics != "" {
			d.watch = watchMetrics(cfg.ServerMetrics)
		}
	}
	wctx, stopWatch := context.WithCancel(ctx)
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		if d.watch != nil {
			d.watch.run(wctx, d.start, watchPeriod(cfg.Duration))
		}
	}()
	d.bots = runBots(ctx, spec, addr, d.start, d.truth)
	stopWatch()
	<-watched
	errs := []error{botErrors(d.bots)}
	if stopServer != nil {
		errs = append(errs, stopServer())
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		d.notes = append(d.notes, fmt.Sprintf("interrupted after %.1fs", time.Since(d.start).Seconds()))
	}
	d.setWindow()
	if d.truth != nil {
		scfg := serverConfig(spec)
		if a, err := server.TickAllocs(scfg, cfg.Bots, allocTicks); err == nil {
			d.allocsPerTick = &a
		} else {
			d.notes = append(d.notes, "allocs_per_tick: "+err.Error())
		}
	}
	return d, nil
}

// setWindow picks the measured part of the run: from the last bot's first frame plus the
// warm-up to the first bot's last frame, so every bot is playing throughout and no one is
// seen leaving.
func (d *runData) setWindow() {
	var first, last time.Time
	for _, b := range d.bots {
		if b.probe.frames == 0 {
			continue
		}
		if first.IsZero() || b.probe.first.After(first) {
			first = b.probe.first
		}
		if last.IsZero() || b.probe.last.Before(last) {
			last = b.probe.last
		}
	}
	warm := min(warmup, d.spec.cfg.Duration/4)
	d.windowStart, d.windowEnd = first.Sub(d.start)+warm, last.Sub(d.start)
	if note := d.busyNote(); note != "" {
		d.notes = append(d.notes, note)
	}
	if d.windowEnd <= d.windowStart {
		d.windowStart = first.Sub(d.start)
		d.notes = append(d.notes, "run too short for a warm-up: measured from the last bot's first frame")
	}
}

// busyNote says, when the server refused some bots' joins as busy, how many and how much
// shorter the measured window is for it: a bot that got in late plays its whole duration
// from then, so the bots all play together for less of the run.
func (d *runData) busyNote() string {
	bots, refusals := 0, 0
	for _, b := range d.bots {
		if b.busyRetries > 0 {
			bots++
			refusals += b.busyRetries
		}
	}
	if bots == 0 {
		return ""
	}
	window := max(d.windowEnd-d.windowStart, 0)
	return fmt.Sprintf("the server refused %d joins of %d bots as busy (REJECT_CODE_BUSY); each joined again a second or two later and played its whole -duration from then, so every bot played together for only %.1f s of the %v run (the measured window): give -duration room, or join fewer bots at once",
		refusals, bots, window.Seconds(), d.spec.cfg.Duration)
}

// inWindow reports whether a sample taken at at counts.
func (d *runData) inWindow(at time.Duration) bool {
	return at >= d.windowStart && at <= d.windowEnd
}

// serverConfig is the in-process server's configuration for spec.
func serverConfig(spec runSpec) server.Config {
	cfg := spec.cfg
	scfg := server.DefaultConfig()
	scfg.Lane = spec.lane
	scfg.Addr = "127.0.0.1:0"
	scfg.Rules.Contact = cfg.Contact
	scfg.InputOnArrival = cfg.InputBuffer == "off"
	scfg.MaxPlayers = max(scfg.MaxPlayers, cfg.Bots)
	if cfg.Rooms > 1 { // each room holds its share; the default room is the first of them
		scfg.MaxPlayers = max(16, (cfg.Bots+cfg.Rooms-1)/cfg.Rooms)
		scfg.MaxRooms, scfg.RoomOpenBurst = max(scfg.MaxRooms, cfg.Rooms), max(scfg.RoomOpenBurst, cfg.Rooms)
		scfg.MaxRoomsPerAddress, scfg.ExtraRooms = cfg.Rooms, cfg.Rooms // every bot comes from 127.0.0.1
		scfg.MaxQueuedJoins = cfg.Bots
	}
	scfg.Arena, _ = netcode.ArenaByName(cfg.Arena) // validated by Config.Validate
	scfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	return scfg
}

// startServer runs a server on a free loopback port, recording every tick into truth,
// until the returned stop is called.
func startServer(ctx context.Context, spec runSpec, truth *history) (string, *server.Server, func() error, error) {
	scfg := serverConfig(spec)
	srv, err := server.New(scfg)
	if err != nil {
		return "", nil, nil, err
	}
	srv.Observe(func(rec server.TickRecord) { truth.record(rec, time.Now()) })
	pc, err := net.ListenPacket("udp", scfg.Addr)
	transport.TuneSocket(pc)
	if err != nil {
		return "", nil, nil, fmt.Errorf("tanksim: listen: %w", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, pc) }()
	return pc.LocalAddr().String(), srv, func() error { cancel(); return <-done }, nil
}

// runBots plays cfg.Bots bots at once against addr and waits for all of them.
func runBots(ctx context.Context, spec runSpec, addr string, start time.Time, truth *history) []botRun {
	bots := make([]botRun, spec.cfg.Bots)
	var wg sync.WaitGroup
	for i := range bots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			bots[i].probe = newProbe(start, truth, spec.cfg.botSeed(i), spec.cfg.Bots)
			runBot(ctx, spec, addr, i, &bots[i])
		}()
	}
	wg.Wait()
	return bots
}

// Bots that join in a burst may find the server busy (REJECT_CODE_BUSY: more joins waiting
// for a seat at once than it takes, PROTOCOL.md §5), which asks them to try again in a
// second. A bot does, up to busyRetries times, each after busyWait and up to as much again
// at random, so the burst spreads out.
const (
	busyRetries = 10
	busyWait    = time.Second
)

// runBot plays bot i of a run into b, joining again while the server says it is busy.
func runBot(ctx context.Context, spec runSpec, addr string, i int, b *botRun) {
	cfg := spec.cfg
	tl, _ := timeline(spec.interp) // validated by newSpec
	opts := client.DefaultOptions()
	opts.Interp.Timeline = tl
	opts.Local.PartialStep = !cfg.NoPartialStep
	opts.InputOnArrival = cfg.InputBuffer == "off"
	bc := client.BotConfig{
		Addr:     addr,
		Name:     fmt.Sprintf("bot-%d", i+1),
		Room:     cfg.botRoom(i),
		Seed:     cfg.botSeed(i),
		Duration: cfg.Duration,
		Frame:    time.Second / time.Duration(cfg.BotFPS),
		Options:  opts,
		OnFrame:  b.probe.onFrame,
		Fire:     cfg.Fire,
		LagComp:  cfg.LagComp,
		Network:  spec.netFor(i),
	}
	var rec *os.File
	if cfg.RecordDir != "" {
		var err error
		if rec, err = os.Create(filepath.Join(cfg.RecordDir, recordFile(spec, i))); err != nil {
			b.err = fmt.Errorf("tanksim: -record: %w", err)
			return
		}
		bc.Record = rec // a refused join writes nothing to it
	}
	jitter := rand.New(rand.NewPCG(cfg.botSeed(i), 0))
	for {
		pc, err := botConn(ctx, spec, addr, i, b)
		if err != nil {
			b.err = err
			break
		}
		b.probe.up, b.probe.down = b.up, b.down
		bc.PacketConn = pc
		b.report, b.err = client.RunBot(ctx, bc)
		if !refusedAsBusy(b.err) || b.busyRetries == busyRetries {
			break
		}
		b.busyRetries++
		if !pause.For(ctx, busyWait+time.Duration(jitter.Int64N(int64(busyWait)))) {
			break
		}
	}
	if rec != nil {
		b.err = errors.Join(b.err, rec.Close())
		if e := b.report.RecordError; e != "" {
			b.err = errors.Join(b.err, fmt.Errorf("tanksim: bot %d's recording: %s", i+1, e))
		}
	}
}

// refusedAsBusy reports whether err is the server refusing a join with REJECT_CODE_BUSY.
func refusedAsBusy(err error) bool {
	var refused *client.RejectedError
	return errors.As(err, &refused) && refused.Code == wire.RejectBusy
}

// botErrors joins the bots' errors, each distinct one once: bots that failed alike (a
// server that does not answer fails every bot) say so in one line that counts them.
func botErrors(bots []botRun) error {
	var order []string
	count := map[string]int{}
	first := map[string]error{}
	for _, b := range bots {
		if b.err == nil {
			continue
		}
		msg := b.err.Error()
		if count[msg] == 0 {
			order, first[msg] = append(order, msg), b.err
		}
		count[msg]++
	}
	var errs []error
	for _, msg := range order {
		switch n := count[msg]; {
		case n == 1:
			errs = append(errs, first[msg])
		case n == len(bots):
			errs = append(errs, fmt.Errorf("every bot (%d): %w", n, first[msg]))
		default:
			errs = append(errs, fmt.Errorf("%d bots: %w", n, first[msg]))
		}
	}
	return errors.Join(errs...)
}

// recordFile names bot i's recording in a run: its label with dashes, e.g.
// "wifi-bad-datagram-adaptive-bot-3.tnrec". With -group the network is the bot's own
// group's ("up=mobile-3g,down=lan" as "up-mobile-3g-down-lan"), not the run's label.
func recordFile(spec runSpec, i int) string {
	own := spec
	own.profile, _ = spec.botNet(i)
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-' {
			return r
		}
		return '-'
	}, own.label())
	return fmt.Sprintf("%s-bot-%d.tnrec", name, i+1)
}

// botConn opens bot i's socket as a stack: UDP (with Config.Web, a WebRTC data channel), a
// byte counter (what the server sent us, before simulated loss), the link conditioner, and
// a byte counter (what our KCP wrote, before simulated loss). The session owns the stack
// and closes it.
func botConn(ctx context.Context, spec runSpec, addr string, i int, b *botRun) (net.PacketConn, error) {
	var raw net.PacketConn
	if spec.cfg.Web != "" {
		dc, err := webConn(ctx, spec.cfg.Web)
		if err != nil {
			return nil, fmt.Errorf("tanksim: bot %d: %w", i+1, err)
		}
		raw = dc
	} else {
		local := ":0"
		if host, _, err := net.SplitHostPort(addr); err == nil && net.ParseIP(host).IsLoopback() {
			local = "127.0.0.1:0"
		}
		udp, err := net.ListenPacket("udp", local)
		if err != nil {
			return nil, fmt.Errorf("tanksim: bot %d: open socket: %w", i+1, err)
		}
		transport.TuneSocket(udp)
		raw = udp
	}
	b.down = transport.NewCountingConn(raw)
	cc, err := linksim.Condition(b.down, spec.condFor(i), spec.cfg.botSeed(i))
	if err != nil {
		raw.Close()
		return nil, fmt.Errorf("tanksim: bot %d: %w", i+1, err)
	}
	b.up = transport.NewCountingConn(cc)
	return b.up, nil
}
