package main

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"
)

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*Config)
		want   string // "" means valid
	}{
		{"defaults", func(*Config) {}, ""},
		{"a preset", func(c *Config) { c.Net.Preset = "mobile-3g" }, ""},
		{"unknown preset", func(c *Config) { c.Net.Preset = "dialup" }, "unknown network preset"},
		{"bad server setting", func(c *Config) { c.Server.MaxPlayers = 0 }, "max players"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := DefaultConfig()
			tt.mutate(&c)
			err := c.Validate()
			if (err == nil) != (tt.want == "") || (err != nil && !strings.Contains(err.Error(), tt.want)) {
				t.Errorf("Validate() = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestRun_ServesUntilCancelled(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Server.Addr = "127.0.0.1:0"
	cfg.Net.Preset = "lan" // through the conditioner, as -net does
	cfg.Metrics = "127.0.0.1:0"
	cfg.Server.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, cfg) }()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run = %v, want a clean stop", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run did not stop within 10s of cancellation")
	}
	cfg.Net.Preset = "dialup"
	if err := run(context.Background(), cfg); err == nil {
		t.Error("run with an unknown preset succeeded")
	}
	cfg.Net.Preset = "none"
	cfg.Metrics = "127.0.0.1:99999"
	if err := run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "metrics") {
		t.Errorf("run with a bad metrics address = %v, want a metrics error", err)
	}
}
