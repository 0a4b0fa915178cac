package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"time"

	"tanknet/client"
	"tanknet/server"
)

// Config is one tanksim run.
type Config struct {
	Server   string // address of an external server; "" runs one in-process
	Bots     int
	Duration time.Duration
	Seed     uint64
	Contact  bool // in-process server only
	JSON     bool
}

// DefaultConfig returns a short run that still shows every counter moving.
func DefaultConfig() Config {
	return Config{Bots: 4, Duration: 10 * time.Second, Seed: 1, Contact: true}
}

// Validate reports the first problem with c.
func (c Config) Validate() error {
	switch {
	case c.Bots < 1 || c.Bots > 256:
		return fmt.Errorf("-bots %d outside [1, 256]", c.Bots)
	case c.Duration <= 0:
		return fmt.Errorf("-duration %v must be positive", c.Duration)
	}
	return nil
}

// run plays one simulation and writes its report to out.
func run(ctx context.Context, cfg Config, out io.Writer) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	addr := cfg.Server
	var stopServer func() error
	if addr == "" {
		var err error
		if addr, stopServer, err = startServer(ctx, cfg); err != nil {
			return err
		}
	}
	reports, err := runBots(ctx, cfg, addr)
	if stopServer != nil {
		if serr := stopServer(); err == nil {
			err = serr
		}
	}
	if err != nil {
		return err
	}
	rep := summarize(cfg, reports)
	if cfg.JSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	rep.print(out)
	return nil
}

// startServer runs a server on a free loopback port until the returned stop is called.
func startServer(ctx context.Context, cfg Config) (string, func() error, error) {
	scfg := server.DefaultConfig()
	scfg.Addr = "127.0.0.1:0"
	scfg.Contact = cfg.Contact
	scfg.MaxPlayers = max(scfg.MaxPlayers, cfg.Bots)
	scfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := server.New(scfg)
	if err != nil {
		return "", nil, err
	}
	pc, err := net.ListenPacket("udp", scfg.Addr)
	if err != nil {
		return "", nil, fmt.Errorf("listen: %w", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, pc) }()
	return pc.LocalAddr().String(), func() error { cancel(); return <-done }, nil
}

// runBots plays cfg.Bots bots at once against addr and returns their reports.
func runBots(ctx context.Context, cfg Config, addr string) ([]client.Report, error) {
	reports := make([]client.Report, cfg.Bots)
	errs := make([]error, cfg.Bots)
	var wg sync.WaitGroup
	for i := range cfg.Bots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			reports[i], errs[i] = client.RunBot(ctx, client.BotConfig{
				Addr:     addr,
				Name:     fmt.Sprintf("bot-%d", i+1),
				Seed:     cfg.Seed*1000 + uint64(i),
				Duration: cfg.Duration,
				Options:  client.DefaultOptions(),
			})
		}()
	}
	wg.Wait()
	return reports, errors.Join(errs...)
}
