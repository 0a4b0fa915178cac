// Command tankserver runs an authoritative tanknet game server.
//
//	tankserver -addr :7777 -max-players 16 -contact=true
//	tankserver -net wifi-bad            # every client behind a simulated bad network
//	tankserver -metrics 127.0.0.1:9100  # Prometheus text on /metrics, profiles on /debug/pprof/
//	tankserver -arena large -max-players 256
//	tankserver -max-rooms 8 -max-players 32 # up to 8 matches of 32; clients pick one with -room
//	tankserver -web 127.0.0.1:8080      # browsers too: the page, and WebRTC on UDP port 8080
//	tankserver -name lab -discovery off # a name for the LAN's lobbies, or no LAN discovery
//
// Each room (a match: the default one, and those clients open by naming them) ticks every
// 50 ms on its own goroutine. The server logs every join, reject and drop with its reason,
// and shuts down cleanly on SIGINT or SIGTERM: at once, or with -drain 30s after refusing newcomers and
// letting the players in play go on for up to 30 s (a second signal stops at once).
//
// Under Agones (AGONES_SDK_HTTP_PORT set) it talks to the SDK sidecar: Ready once it
// listens, Health twice per -agones-health period, the rooms and players counters kept
// current; when the GameServer turns Shutdown it drains as on SIGTERM, and when the game
// has stopped it tells Agones it is done. See docs/DEPLOY.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"tanknet/agones"
	"tanknet/carriage"
	"tanknet/discovery"
	"tanknet/internal/cliflag"
	"tanknet/linksim"
	"tanknet/netcode"
	"tanknet/server"
	"tanknet/server/metrics"
	"tanknet/server/recording"
	"tanknet/transport"
)

// Config is everything tankserver needs.
type Config struct {
	Server server.Config
	Net    linksim.NetFlags // simulated network for every client; the zero value is none
	// Metrics is the TCP address serving /metrics and /debug/pprof/; empty means none.
	Metrics string
	// Verbose logs debug detail.
	Verbose bool
	// Drain is how long SIGINT or SIGTERM lets the players in play go on, refusing new
	// ones, before disconnecting the rest; a second signal stops at once. 0 stops at once.
	// An Agones Shutdown starts the same drain.
	Drain time.Duration
	// Agones is how to talk to the Agones SDK sidecar; its SDK is empty (none) unless
	// main finds AGONES_SDK_HTTP_PORT set.
	Agones AgonesConfig
	// Record is the file the server records the match to (docs/RECORDINGS.md); empty: none.
	Record string
	// Web is how browsers join (the page, offers, the ICE port); its Addr is empty: none.
	Web WebConfig
	// Discovery is where the server answers LAN discovery (discovery.go): "on" (and
	// empty) a port of 47770-47779 on -addr's host, "off", a PORT, or HOST:PORT.
	Discovery string
	// Name is the server's name in discovery answers; empty: the host's name.
	Name string

	// observe, when not nil, is called after every tick of every room, as server.Observe
	// calls its function: tests read the server's truth through it. Not with Record.
	observe func(server.TickRecord)
}

// DefaultConfig returns a server on :7777 with a perfect network.
func DefaultConfig() Config {
	return Config{Server: server.DefaultConfig(), Net: linksim.NetFlags{Preset: "none", Seed: 1}, Agones: DefaultAgonesConfig(), Web: DefaultWebConfig(), Discovery: "on"}
}

// parseFlags defines tankserver's flags on fs, parses args and returns the Config they
// describe, checked (Config.Validate). Like every tanknet command, tankserver parses its
// flags here and nowhere else; main only runs the Config.
func parseFlags(fs *flag.FlagSet, args []string) (Config, error) {
	cfg := DefaultConfig()
	fs.StringVar(&cfg.Server.Addr, "addr", cfg.Server.Addr, "UDP `address` to listen on")
	fs.IntVar(&cfg.Server.MaxPlayers, "max-players", cfg.Server.MaxPlayers, "most players at once in each room (1-256)")
	fs.IntVar(&cfg.Server.MaxRooms, "max-rooms", cfg.Server.MaxRooms, "most rooms (independent matches on this one port) open at once, the default room included (1-256); a client's -room opens one")
	fs.IntVar(&cfg.Server.MaxRoomsPerAddress, "max-rooms-per-address", cfg.Server.MaxRoomsPerAddress, "most open rooms one client address (an IPv6 one by its /64) may have opened, so no one client holds every room")
	fs.IntVar(&cfg.Server.ExtraRooms, "extra-rooms", cfg.Server.ExtraRooms, "most open rooms, in all, beyond each address's first (their second and later); the rest are one per address. -1: a quarter of -max-rooms minus 1, rounded down")
	fs.IntVar(&cfg.Server.RoomOpenBurst, "room-open-burst", cfg.Server.RoomOpenBurst, "rooms one client address may open at once; after them, one a second")
	fs.DurationVar(&cfg.Server.RoomGrace, "room-grace", cfg.Server.RoomGrace, "close a room (not the default one) once it has been empty this `long`")
	cliflag.ContactVar(fs, &cfg.Server.Rules.Contact, "how tanks that touch are pushed apart: predicted (each client pushes its own tank in its inputs, within the rules: prediction stays exact), server (the server after each tick: clients correct), or off; -contact=false is off")
	fs.TextVar(&cfg.Server.Lane, "lane", cfg.Server.Lane, "where snapshots travel: `datagram` (unreliable chunks, the default) or reliable (the ordered stream)")
	fs.Func("arena", "the `arena`: default (40 x 25, the default) or large (160 x 100, room for 256 players)", func(name string) error {
		a, err := netcode.ArenaByName(name)
		cfg.Server.Arena = a
		return err
	})
	fs.Func("input-buffer", "`on` (the default): apply each client's inputs one per tick from its input buffer; off: as they arrive (a client may ask for either for itself)", func(v string) error {
		switch v {
		case "on":
			cfg.Server.InputOnArrival = false
		case "off":
			cfg.Server.InputOnArrival = true
		default:
			return fmt.Errorf("want on or off, not %q", v)
		}
		return nil
	})
	fs.DurationVar(&cfg.Server.IdleTimeout, "idle-timeout", cfg.Server.IdleTimeout, "drop a client silent this long")
	fs.DurationVar(&cfg.Server.AwayTimeout, "away-timeout", cfg.Server.AwayTimeout, "drop a client that said it is away (a hidden or frozen page) after this long silent")
	fs.StringVar(&cfg.Metrics, "metrics", "", "serve Prometheus metrics on http://`address`/metrics and profiles on /debug/pprof/, e.g. 127.0.0.1:9100 (off when empty)")
	fs.StringVar(&cfg.Record, "record", "", "record the default room's match to `file` (docs/RECORDINGS.md; check it with tankreplay verify)")
	cfg.Net.Register(fs)
	cfg.Web.register(fs)
	fs.StringVar(&cfg.Discovery, "discovery", cfg.Discovery, "answer LAN discovery (tanksim -discover, the lobby): `on` (a free UDP port of 47770-47779 on -addr's host), off, a PORT, or HOST:PORT")
	fs.StringVar(&cfg.Name, "name", "", "the server's `name` in LAN discovery answers (at most 32 bytes of printable UTF-8); empty: the host's name")
	fs.BoolVar(&cfg.Verbose, "v", false, "log debug detail")
	fs.DurationVar(&cfg.Drain, "drain", 0, "on SIGINT/SIGTERM (or an Agones Shutdown) refuse new players and let those playing go on for up to this `long` before disconnecting them (a second signal stops at once); 0 stops at once")
	fs.DurationVar(&cfg.Agones.Health, "agones-health", cfg.Agones.Health, "under Agones (AGONES_SDK_HTTP_PORT set), the fleet's health check `period` (health.periodSeconds); tankserver pings Health twice in each")
	fs.DurationVar(&cfg.Agones.RoomHold, "agones-room-hold", cfg.Agones.RoomHold, "under Agones, how long a room an allocation added to the rooms counter is held for its match before a room opens for it (docs/DEPLOY.md)")
	if err := cliflag.Parse(fs, args); err != nil {
		return cfg, err
	}
	return cfg, cfg.Validate()
}

// Validate reports the first problem with c.
func (c Config) Validate() error {
	if c.Drain < 0 {
		return fmt.Errorf("-drain %v must not be negative", c.Drain)
	}
	if err := c.Agones.Validate(); err != nil {
		return err
	}
	if _, err := c.Net.Path(); err != nil {
		return err
	}
	if err := c.Web.Validate(); err != nil {
		return err
	}
	if err := checkAddr("-addr", c.Server.Addr, "udp"); err != nil {
		return err
	}
	if c.Metrics != "" {
		if err := checkAddr("-metrics", c.Metrics, "tcp"); err != nil {
			return err
		}
	}
	if _, err := c.discoverySpot(); err != nil {
		return err
	}
	if c.Name != "" {
		if err := discovery.CheckName(c.Name); err != nil {
			return fmt.Errorf("-name: %w", err)
		}
	}
	return c.Server.Validate()
}

func main() {
	fs := flag.NewFlagSet(os.Args[0], flag.ContinueOnError)
	cfg, err := parseFlags(fs, os.Args[1:])
	switch {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0) // the usage is printed
	case err != nil:
		fmt.Fprintln(os.Stderr, "tankserver:", err)
		os.Exit(2)
	}
	if cfg.Agones.SDK, _, err = agones.URLFromEnv(os.LookupEnv); err != nil {
		fmt.Fprintln(os.Stderr, "tankserver:", err)
		os.Exit(2)
	}
	level := slog.LevelInfo
	if cfg.Verbose {
		level = slog.LevelDebug
	}
	cfg.Server.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))

	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	if err := run(context.Background(), cfg, signals); err != nil {
		fmt.Fprintln(os.Stderr, "tankserver:", err)
		os.Exit(1)
	}
}

// run serves the game with cfg until ctx ends or a signal in signals stops it (a drain
// first, on SIGTERM): the browsers' door, the metrics endpoint, discovery and the recording
// around the game's socket, each stopped when run returns.
func run(ctx context.Context, cfg Config, signals <-chan os.Signal) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	path, err := cfg.Net.Path()
	if err != nil {
		return err
	}
	srv, err := server.New(cfg.Server)
	if err != nil {
		return err
	}
	// A drain starts on SIGTERM, or when an orchestrator (Agones) or an operator (POST /drain
	// on the metrics port) asks for one.
	drainNow := make(chan struct{})
	var drainOnce sync.Once
	askDrain := func() { drainOnce.Do(func() { close(drainNow) }) }
	var door *web // the browsers' way in, with -web
	var extra []prometheus.Collector
	if cfg.Web.Addr != "" {
		if door, err = startWeb(cfg.Web, cfg.Server.Logger, srv.Draining, newRoomsHandler(summarizer(cfg, srv, 0, 0), time.Now)); err != nil {
			return err
		}
		defer door.stop()
		extra = append(extra, newHubCollector(door.hub.Stats))
	}
	var discoveryCounts *discoveryCollector
	if spot, err := cfg.discoverySpot(); err == nil && !spot.off {
		discoveryCounts = newDiscoveryCollector()
		extra = append(extra, discoveryCounts)
	}
	if cfg.Metrics != "" {
		stopMetrics, err := serveMetrics(ctx, cfg, srv, askDrain, extra)
		if err != nil {
			return err
		}
		defer stopMetrics()
	}
	pc, stopDiscovery, err := openSocket(cfg, srv, door, path, discoveryCounts)
	if err != nil {
		return err
	}
	defer stopDiscovery()
	if cfg.Record != "" {
		stopRecording, err := startRecording(cfg, srv)
		if err != nil {
			pc.Close()
			return err
		}
		defer stopRecording()
	} else if cfg.observe != nil {
		srv.Observe(cfg.observe)
	}
	member := joinFleet(cfg, srv, askDrain)
	gameCtx, stop := stopOnSignals(ctx, srv, cfg.Drain, signals, drainNow, cfg.Server.Logger)
	defer stop()
	return serveGame(ctx, gameCtx, srv, pc, member)
}

// serveMetrics serves /metrics (and POST /drain, which calls askDrain) on cfg.Metrics until
// the returned stop is called.
func serveMetrics(ctx context.Context, cfg Config, srv *server.Server, askDrain func(), extra []prometheus.Collector) (stop func(), err error) {
	ln, err := metrics.Listen(cfg.Metrics)
	if err != nil {
		return nil, err
	}
	cfg.Server.Logger.Info("serving metrics", "url", "http://"+ln.Addr().String()+"/metrics")
	mctx, stopMetrics := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- metrics.Serve(mctx, ln, srv.Stats, askDrain, extra...) }()
	return func() {
		stopMetrics()
		if err := <-served; err != nil {
			cfg.Server.Logger.Error("metrics endpoint failed", "err", err)
		}
	}, nil
}

// listenError says why the address given by flag could not be listened on: when another
// program holds the port (another tankserver, most often), what to do about it.
func listenError(flag, addr string, err error) error {
	if errors.Is(err, syscall.EADDRINUSE) {
		name, _, _ := strings.Cut(flag, " ")
		return fmt.Errorf("%s %s: the port is in use (by another tankserver?): stop that one, or give %s another port: %w", flag, addr, name, err)
	}
	return fmt.Errorf("%s %s: %w", flag, addr, err)
}

// openSocket binds the game's UDP socket and starts answering discovery for it; the
// browsers' datagrams (door, with -web) join it under the game, and -net's simulated path
// goes under it all.
func openSocket(cfg Config, srv *server.Server, door *web, path linksim.Path, counts *discoveryCollector) (net.PacketConn, func(), error) {
	pc, err := net.ListenPacket("udp", cfg.Server.Addr)
	if err != nil {
		return nil, nil, listenError("-addr", cfg.Server.Addr, err)
	}
	transport.TuneSocket(pc)
	stopDiscovery, err := startDiscovery(cfg, srv, pc.LocalAddr().(*net.UDPAddr).Port, door, counts)
	if err != nil {
		pc.Close()
		return nil, nil, err
	}
	if door != nil {
		// Browsers' datagrams join the socket's under the game, each browser at an address
		// of its own: the same gate, rooms and limits serve both.
		pc = carriage.Merge(pc, door.hub)
	}
	if path != (linksim.Path{}) {
		// Under the server's own socket what it writes goes down to the clients and what it
		// reads came up from them: every client's link gets the path.
		cpc, err := linksim.Condition(pc, path.AtServer(), cfg.Net.Seed)
		if err != nil {
			pc.Close()
			stopDiscovery()
			return nil, nil, err
		}
		cfg.Server.Logger.Info("simulating network", "path", path.String())
		pc = cpc
	}
	return pc, stopDiscovery, nil
}

// startRecording records the default room's ticks into cfg.Record until the returned stop
// is called, which closes the file and says so.
func startRecording(cfg Config, srv *server.Server) (stop func(), err error) {
	rec, err := recording.Create(cfg.Record, cfg.Server, cfg.Server.Logger)
	if err != nil {
		return nil, err
	}
	srv.Observe(rec.Tick) // the default room only: one world's story per file
	return func() {
		if err := rec.Close(); err != nil {
			cfg.Server.Logger.Error("recording incomplete", "file", cfg.Record, "err", err)
		} else {
			cfg.Server.Logger.Info("recording written", "file", cfg.Record)
		}
	}, nil
}

// serveGame serves the game on pc until gameCtx ends, as a member of an Agones fleet when
// member is not nil: the member marks the server Ready (the socket is bound), talks to
// Agones until Serve has returned (health pings go on through a drain), then says it is done.
func serveGame(ctx, gameCtx context.Context, srv *server.Server, pc net.PacketConn, member *fleetMember) error {
	if member == nil {
		return srv.Serve(gameCtx, pc)
	}
	memberCtx, stopMember := context.WithCancel(ctx)
	wait := member.start(memberCtx)
	err := srv.Serve(gameCtx, pc)
	stopMember()
	wait()
	member.shutdown()
	return err
}
