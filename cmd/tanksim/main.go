// Command tanksim runs headless bots against a tanknet server and reports how the netcode
// behaved: prediction residuals, corrections, snaps, interpolation holds.
//
//	tanksim -bots 4 -duration 10s            # in-process server on a loopback port
//	tanksim -server 127.0.0.1:7777 -json     # against a running tankserver
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	cfg := DefaultConfig()
	flag.StringVar(&cfg.Server, "server", "", "`address` of a running tankserver; empty starts one in-process on 127.0.0.1")
	flag.IntVar(&cfg.Bots, "bots", cfg.Bots, "number of bots")
	flag.DurationVar(&cfg.Duration, "duration", cfg.Duration, "how long the bots play")
	flag.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "seed for the bots' driving")
	flag.BoolVar(&cfg.Contact, "contact", cfg.Contact, "in-process server only: resolve tank contact")
	flag.BoolVar(&cfg.JSON, "json", false, "print one JSON object instead of a summary")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, cfg, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "tanksim:", err)
		os.Exit(1)
	}
}
