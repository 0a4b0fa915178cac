// Command tankload puts many thin clients (package tanknet/load) on a running tankserver:
// each speaks the whole protocol on a 50 ms clock without predicting or drawing anything,
// checks its inputs are applied and its snapshots arrive, and the run reports input
// latency from each input's intended send time, join times, drops and this process's CPU.
//
//	tankload -server 127.0.0.1:7777 -players 1024 -room-size 32 -duration 30s
//	tankload -server 127.0.0.1:7777 -players 64 -json
//
// The server must seat them: raise its -max-players to -room-size, -max-rooms to the rooms
// the run fills, and, since every client comes from one address, -max-rooms-per-address
// and -extra-rooms with it.
//
// It is its own command rather than a tanksim flag because tanksim's runs are built on full
// bots and ground truth (at most 256, an in-process server, residuals and holds), and a
// load run is built on neither: its figures are the server's cost and the clients' latency.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"strings"
	"syscall"

	"tanknet/internal/cliflag"
	"tanknet/load"
)

func main() {
	fs := flag.NewFlagSet(os.Args[0], flag.ContinueOnError)
	cfg, opts, err := parseFlags(fs, os.Args[1:])
	switch {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case err != nil:
		// load.Config's own errors already say they are tankload's.
		fmt.Fprintln(os.Stderr, "tankload:", strings.TrimPrefix(err.Error(), "tankload: "))
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, cfg, opts, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// options are the flags that are not the run's: how to report it.
type options struct {
	json       bool
	cpuProfile string
}

// parseFlags maps the command line to a load.Config and the options.
func parseFlags(fs *flag.FlagSet, args []string) (load.Config, options, error) {
	cfg := load.DefaultConfig()
	fs.StringVar(&cfg.Server, "server", "", "the tankserver's UDP address, host:port (required)")
	fs.IntVar(&cfg.Players, "players", cfg.Players, "thin clients to join")
	fs.IntVar(&cfg.RoomSize, "room-size", cfg.RoomSize, "players per room: the first fill the default room, the next room-2, and on (0: all in the default room)")
	fs.DurationVar(&cfg.Duration, "duration", cfg.Duration, "how long they play once all have joined")
	fs.IntVar(&cfg.Drivers, "drivers", cfg.Drivers, "goroutines driving the clients, each on its own 50 ms clock")
	fs.IntVar(&cfg.JoinParallel, "join-parallel", cfg.JoinParallel, "handshakes in flight at once while joining")
	fs.DurationVar(&cfg.JoinTimeout, "join-timeout", cfg.JoinTimeout, "how long one handshake may take")
	var o options
	fs.BoolVar(&o.json, "json", false, "print the report as JSON")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the whole run to this `file` (go tool pprof reads it)")
	if err := cliflag.Parse(fs, args); err != nil {
		return cfg, o, err
	}
	if fs.NArg() > 0 {
		return cfg, o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return cfg, o, cfg.Validate()
}

// run plays the load and prints its report.
func run(ctx context.Context, cfg load.Config, o options, out io.Writer) error {
	if o.cpuProfile != "" {
		f, err := os.Create(o.cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	rep, err := load.Run(ctx, cfg)
	if err != nil {
		return err
	}
	if o.json {
		return rep.WriteJSON(out)
	}
	return rep.WriteText(out)
}
