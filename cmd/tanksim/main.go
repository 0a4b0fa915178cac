// Command tanksim is tanknet's measuring instrument: it runs headless bots, each behind a
// seeded link conditioner, against a server and reports how the netcode behaved against
// ground truth, the in-process server's own history of every tick.
//
//	tanksim                                          # 8 bots, 10 s, broadband, receive timeline
//	tanksim -net wifi-bad -interp adaptive -json      # one profile, the adaptive timeline
//	tanksim -net custom -latency 80ms -loss 0.02      # a link of your own
//	tanksim -matrix -duration 10s -plot docs/plots    # every profile x both timelines, charts
//	tanksim -server 127.0.0.1:7777                    # against a running tankserver
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"tanknet/transport"
)

func main() {
	cfg := DefaultConfig()
	flag.StringVar(&cfg.Server, "server", "", "`address` of a running tankserver; empty starts one in-process on 127.0.0.1 (needed for ground truth)")
	flag.IntVar(&cfg.Bots, "bots", cfg.Bots, "number of bots")
	flag.DurationVar(&cfg.Duration, "duration", cfg.Duration, "how long the bots play (per run with -matrix)")
	flag.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "seed for the bots' driving and their link conditioners")
	flag.BoolVar(&cfg.Contact, "contact", cfg.Contact, "in-process server only: resolve tank contact")
	flag.StringVar(&cfg.Net, "net", cfg.Net, "network `profile`: "+strings.Join(transport.PresetNames(), ", ")+", or custom")
	flag.StringVar(&cfg.Interp, "interp", cfg.Interp, "remote interpolation `timeline`: receive or adaptive")
	flag.BoolVar(&cfg.JSON, "json", false, "print JSON instead of a text report")
	flag.StringVar(&cfg.PlotDir, "plot", "", "write PNG charts into `dir`")
	flag.BoolVar(&cfg.Matrix, "matrix", false, "run every profile but none with both timelines and print one table")
	latency := flag.Duration("latency", 0, "override the profile's one-way latency, both directions")
	jitter := flag.Duration("jitter", 0, "override the profile's one-way jitter (+/-), both directions")
	loss := flag.Float64("loss", 0, "override the profile's loss probability per packet [0, 1]")
	dup := flag.Float64("dup", 0, "override the profile's duplicate probability per packet [0, 1]")
	reorder := flag.Float64("reorder", 0, "override the profile's reorder probability per packet [0, 1]")
	flag.Parse()
	flag.Visit(func(f *flag.Flag) { // only flags given on the command line override
		switch f.Name {
		case "latency":
			cfg.Link.Latency = latency
		case "jitter":
			cfg.Link.Jitter = jitter
		case "loss":
			cfg.Link.Loss = loss
		case "dup":
			cfg.Link.Duplicate = dup
		case "reorder":
			cfg.Link.Reorder = reorder
		}
	})

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, cfg, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "tanksim:", strings.TrimPrefix(err.Error(), "tanksim: "))
		os.Exit(1)
	}
}
