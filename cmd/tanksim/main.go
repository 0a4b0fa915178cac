// Command tanksim is tanknet's measuring instrument: it runs headless bots, each behind a
// seeded link conditioner, against a server and reports how the netcode behaved against
// ground truth, the in-process server's own history of every tick. The measuring is done
// by package tanknet/sim; this command maps flags to a sim.Config and prints the result.
//
//	tanksim                                          # 8 bots, 10 s, broadband, receive timeline
//	tanksim -net wifi-bad -interp adaptive -json      # one profile, the adaptive timeline
//	tanksim -net custom -latency 80ms -loss 0.02      # a link of your own
//	tanksim -matrix -duration 10s -plot docs/plots    # every preset x both timelines, charts
//	tanksim -server 127.0.0.1:7777                    # against a running tankserver
//	tanksim -bots 256 -arena large -bot-fps 20 -net none
//	tanksim -server 127.0.0.1:7777 -server-metrics 127.0.0.1:9100 -bots 64
//	tanksim -rooms 8 -bots 256 -arena large -bot-fps 20    # 8 rooms of 32 on one server
//	tanksim -discover -discover-timeout 2s           # the tankservers on the LAN, as JSON
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"tanknet/internal/cliflag"
	"tanknet/linksim"
	"tanknet/netcode"
	"tanknet/sim"
	"tanknet/transport"
)

func main() {
	fs := flag.NewFlagSet(os.Args[0], flag.ContinueOnError)
	c, err := parseCommand(fs, os.Args[1:])
	switch {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0) // the usage is printed
	case err != nil:
		fmt.Fprintln(os.Stderr, "tanksim:", strings.TrimPrefix(err.Error(), "tanksim: "))
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	run := func() error { return run(ctx, c.sim, c.json, os.Stdout, os.Stderr) }
	if c.discover.on {
		run = func() error { return discover(ctx, c.discover, os.Stdout) }
	}
	err = run()
	stop() // a second Ctrl-C ends the wait below
	// The bots' sockets outlive their sessions a moment, so that each Goodbye (delayed by a
	// simulated link, too) reaches a -server; exiting at once would drop it, and the server
	// would keep their tanks until they time out.
	if !transport.WaitLingering(lingerLimit) {
		fmt.Fprintf(os.Stderr, "tanksim: some bots' last packets had not left after %v; the server may time them out\n", lingerLimit)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "tanksim:", strings.TrimPrefix(err.Error(), "tanksim: "))
		os.Exit(1)
	}
}

// lingerLimit bounds the wait for the bots' last packets at exit: CloseLinger, then the
// longest a link conditioner under a socket may take to let them go.
const lingerLimit = transport.CloseLinger + linksim.MaxCloseWait

// command is what tanksim was asked to do: measure (sim, printed as JSON if json) or,
// with -discover, look for servers.
type command struct {
	sim      sim.Config
	json     bool
	discover discoverConfig
}

// parseFlags is parseCommand for measuring: the sim.Config and whether to print JSON.
func parseFlags(fs *flag.FlagSet, args []string) (sim.Config, bool, error) {
	c, err := parseCommand(fs, args)
	return c.sim, c.json, err
}

// parseCommand defines tanksim's flags on fs, parses args and returns the command they
// describe. Like every tanknet command, tanksim parses its flags here and nowhere else;
// main only runs the command.
func parseCommand(fs *flag.FlagSet, args []string) (command, error) {
	cfg := sim.DefaultConfig()
	var asJSON bool
	d := defaultDiscoverConfig()
	fs.StringVar(&cfg.Server, "server", "", "`address` of a running tankserver; empty starts one in-process on 127.0.0.1 (needed for ground truth)")
	fs.IntVar(&cfg.Bots, "bots", cfg.Bots, "number of bots")
	fs.IntVar(&cfg.Rooms, "rooms", 0, "spread the bots evenly over `N` rooms of the server (the default room, then room-2 and on), with each room's figures in the report")
	fs.StringVar(&cfg.Room, "room", "", "the `room` every bot joins (default: the server's default room)")
	fs.DurationVar(&cfg.Duration, "duration", cfg.Duration, "how long the bots play (per run with -matrix)")
	fs.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "seed for the bots' driving and their link conditioners")
	cliflag.ContactVar(fs, &cfg.Contact, "in-process server only: how tanks that touch are pushed apart: predicted (by their clients, in their inputs: prediction stays exact), server (by the server after each tick: clients correct), or off; -contact=false is off")
	fs.BoolVar(&cfg.NoPartialStep, "no-partial-step", cfg.NoPartialStep, "draw own tanks between their last two steps, not a partial step ahead (to compare input_to_visible_ms)")
	fs.StringVar(&cfg.Net, "net", cfg.Net, "network `preset` for both directions: "+strings.Join(linksim.PresetNames(), ", ")+", or custom; or up=PRESET,down=PRESET (up: bot to server)")
	fs.StringVar(&cfg.InputBuffer, "input-buffer", cfg.InputBuffer, "`on`: the server applies one input per bot per tick from its buffer and the bots dilate their clocks; off: inputs applied as they arrive; both (with -matrix, its default): every cell in each mode")
	fs.StringVar(&cfg.Interp, "interp", cfg.Interp, "remote interpolation `timeline`: receive or adaptive")
	fs.StringVar(&cfg.Lane, "lane", cfg.Lane, "in-process server: where snapshots travel, `datagram` or reliable")
	fs.BoolVar(&asJSON, "json", false, "print JSON instead of a text report")
	fs.BoolVar(&cfg.Fire, "fire", cfg.Fire, "bots turn toward the nearest tank they draw and fire when a shot would hit it")
	fs.BoolVar(&cfg.LagComp, "lagcomp", cfg.LagComp, "with -fire: the bots' shots ask for lag compensation")
	fs.StringVar(&cfg.PlotDir, "plot", "", "write PNG charts into `dir`")
	fs.StringVar(&cfg.RecordDir, "record", "", "write each bot's client recording into `dir` (one file per bot and run; docs/RECORDINGS.md)")
	fs.BoolVar(&cfg.Matrix, "matrix", false, "run every preset but none on both lanes with both timelines, with the input buffer on and off (see -input-buffer), and print one table")
	fs.StringVar(&cfg.Arena, "arena", cfg.Arena, "in-process server's `arena`: "+strings.Join(netcode.ArenaNames(), " or "))
	fs.IntVar(&cfg.BotFPS, "bot-fps", cfg.BotFPS, "frames per second each bot runs (fewer lets one machine drive many bots)")
	fs.StringVar(&cfg.Web, "web", "", "with -server, the page `URL` of that tankserver's -web (e.g. http://127.0.0.1:8080/): every bot joins over a WebRTC data channel of its own, as a browser page does (pion's WebRTC, not a browser's)")
	fs.StringVar(&cfg.ServerMetrics, "server-metrics", "", "the -metrics `address` of the tankserver given by -server: report its CPU use and bytes per tank")
	fs.Func("group", "`BOTS:NET` plays that many bots on network NET (a preset, or up=PRESET,down=PRESET) and reports them apart; repeat it for each group (the groups' sum is -bots)", func(s string) error {
		g, err := sim.ParseGroup(s)
		if err == nil {
			cfg.Groups = append(cfg.Groups, g)
		}
		return err
	})
	d.register(fs)
	var link linksim.NetFlags
	link.RegisterLink(fs)
	if err := cliflag.Parse(fs, args); err != nil {
		return command{sim: cfg}, err
	}
	if err := d.validate(); err != nil {
		return command{sim: cfg}, err
	}
	botsGiven, bufferGiven := false, false
	fs.Visit(func(f *flag.Flag) {
		botsGiven = botsGiven || f.Name == "bots"
		bufferGiven = bufferGiven || f.Name == "input-buffer"
	})
	if cfg.Matrix && !bufferGiven {
		cfg.InputBuffer = "both" // the matrix compares the modes unless told one
	}
	if len(cfg.Groups) > 0 && !botsGiven {
		cfg.Bots = 0
		for _, g := range cfg.Groups {
			cfg.Bots += g.Bots
		}
	}
	cfg.Link = link.Override() // only flags given on the command line override
	if !d.on {
		// A value out of range or unknown (-bots 0, -net 3g) is refused here with the flags
		// that do not parse (exit 2), not after the run has begun.
		if err := cfg.Validate(); err != nil {
			return command{sim: cfg}, err
		}
	}
	return command{sim: cfg, json: asJSON, discover: d}, nil
}

// run measures cfg, with progress on stderr, and prints the result to stdout.
func run(ctx context.Context, cfg sim.Config, asJSON bool, stdout, stderr io.Writer) error {
	res, err := sim.Run(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	if asJSON {
		return res.WriteJSON(stdout)
	}
	return res.WriteText(stdout)
}
