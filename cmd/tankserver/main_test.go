package main

import (
	"context"
	"flag"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"tanknet/internal/testbuild"
	"tanknet/netcode"
	"tanknet/wire"
)

// TestMain runs the tests, then removes what they built once: the page (thePage, for the
// browser tests) and tankserver (builtServer, for the tests that run it as a user would).
func TestMain(m *testing.M) { testbuild.Main(m, &thePage, &builtServer) }

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
		{"metrics on a port", func(c *Config) { c.Metrics = "127.0.0.1:9100" }, ""},
		{"metrics with no port", func(c *Config) { c.Metrics = "nonsense" }, `-metrics "nonsense"`},
		// A port no socket can have is refused before anything starts (exit 2), not when
		// the socket is opened (exit 1).
		{"a port past 65535", func(c *Config) { c.Server.Addr = "127.0.0.1:99999" }, `-addr "127.0.0.1:99999": the port must be`},
		{"a port that is no number", func(c *Config) { c.Server.Addr = "127.0.0.1:abc" }, `-addr "127.0.0.1:abc": the port must be`},
		{"any port", func(c *Config) { c.Server.Addr = "127.0.0.1:0" }, ""},
		{"metrics on no port", func(c *Config) { c.Metrics = ":abc" }, `-metrics ":abc": the port must be`},
		{"metrics past 65535", func(c *Config) { c.Metrics = "127.0.0.1:70000" }, `-metrics "127.0.0.1:70000": the port must be`},
		{"the page past 65535", func(c *Config) { c.Web.Addr = "127.0.0.1:70000" }, `-web "127.0.0.1:70000": the port must be`},
		{"ICE past 65535", func(c *Config) { c.Web.Addr, c.Web.ICE = ":8080", "127.0.0.1:70000" }, `-web-ice "127.0.0.1:70000": the port must be`},
		{"the page and ICE on ports", func(c *Config) { c.Web.Addr, c.Web.ICE = "127.0.0.1:8080", "127.0.0.1:8081" }, ""},
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
	go func() { done <- run(ctx, cfg, nil) }()
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
	if err := run(context.Background(), cfg, nil); err == nil {
		t.Error("run with an unknown preset succeeded")
	}
	cfg.Net.Preset = "none"
	cfg.Metrics = "127.0.0.1:99999"
	if err := run(context.Background(), cfg, nil); err == nil || !strings.Contains(err.Error(), "metrics") {
		t.Errorf("run with a bad metrics address = %v, want a metrics error", err)
	}
}

// parse runs parseFlags on a fresh flag set that reports errors instead of exiting.
func parse(args ...string) (Config, error) {
	fs := flag.NewFlagSet("tankserver", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return parseFlags(fs, args)
}

func TestParseFlags(t *testing.T) {
	cfg, err := parse()
	if err != nil {
		t.Fatal(err)
	}
	def := DefaultConfig()
	if cfg.Server.Addr != def.Server.Addr || cfg.Server.MaxPlayers != def.Server.MaxPlayers || cfg.Net.Name() != def.Net.Name() || cfg.Net.Seed != def.Net.Seed || cfg.Verbose {
		t.Errorf("parseFlags() = %+v, want the defaults %+v", cfg, def)
	}
	cfg, err = parse("-addr", "127.0.0.1:9", "-max-players", "256", "-contact=false", "-lane", "reliable",
		"-arena", "large", "-idle-timeout", "3s", "-metrics", "127.0.0.1:9100", "-net", "wifi-bad", "-v", "-drain", "5s", "-input-buffer", "off", "-agones-health", "10s")
	if err != nil {
		t.Fatal(err)
	}
	large, _ := netcode.ArenaByName("large")
	if cfg.Server.Addr != "127.0.0.1:9" || cfg.Server.MaxPlayers != 256 || cfg.Server.Rules.Contact != netcode.ContactOff || cfg.Server.Lane != wire.LaneReliable ||
		cfg.Server.Arena.Width != large.Width || cfg.Server.IdleTimeout != 3*time.Second || cfg.Metrics != "127.0.0.1:9100" ||
		cfg.Net.Name() != "wifi-bad" || !cfg.Verbose || cfg.Drain != 5*time.Second || !cfg.Server.InputOnArrival ||
		cfg.Agones.Health != 10*time.Second {
		t.Errorf("parseFlags(every flag) = %+v, want each flag's value", cfg)
	}
	for _, bad := range [][]string{{"-max-players", "0"}, {"-arena", "moon"}, {"-net", "dialup"}, {"-players", "3"}, {"-drain", "-1s"}, {"-input-buffer", "maybe"}, {"-agones-health", "0s"}} {
		if _, err := parse(bad...); err == nil {
			t.Errorf("parseFlags(%q) = nil error, want it refused", bad)
		}
	}
}
