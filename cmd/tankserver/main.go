// Command tankserver runs an authoritative tanknet game server.
//
//	tankserver -addr :7777 -max-players 16 -contact=true
//
// It ticks every 50 ms, logs every join, reject and drop with its reason, and shuts down
// cleanly on SIGINT or SIGTERM.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"tanknet/server"
)

func main() {
	cfg := server.DefaultConfig()
	flag.StringVar(&cfg.Addr, "addr", cfg.Addr, "UDP `address` to listen on")
	flag.IntVar(&cfg.MaxPlayers, "max-players", cfg.MaxPlayers, "most players at once (1-256)")
	flag.BoolVar(&cfg.Contact, "contact", cfg.Contact, "resolve tank-vs-tank contact (off: client prediction is always exact)")
	flag.DurationVar(&cfg.IdleTimeout, "idle-timeout", cfg.IdleTimeout, "drop a client silent this long")
	verbose := flag.Bool("v", false, "log debug detail")
	flag.Parse()

	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	cfg.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, cfg); err != nil {
		fmt.Fprintln(os.Stderr, "tankserver:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, cfg server.Config) error {
	srv, err := server.New(cfg)
	if err != nil {
		return err
	}
	return srv.ListenAndServe(ctx)
}
