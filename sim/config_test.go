package sim

import (
	"strings"
	"testing"
	"time"
)

func TestConfigValidate(t *testing.T) {
	dur := func(d time.Duration) *time.Duration { return &d }
	prob := func(p float64) *float64 { return &p }
	tests := []struct {
		name   string
		mutate func(*Config)
		want   string // substring of the error; "" for valid
	}{
		{"default", func(*Config) {}, ""},
		{"every preset", func(c *Config) { c.Net = "mobile-3g" }, ""},
		{"preset case and space", func(c *Config) { c.Net = " WiFi-Bad " }, ""},
		{"adaptive", func(c *Config) { c.Interp = "adaptive" }, ""},
		{"custom with latency", func(c *Config) { c.Net = "custom"; c.Link.Both.Latency = dur(80 * time.Millisecond) }, ""},
		{"override on a preset", func(c *Config) { c.Link.Both.Loss = prob(0.1) }, ""},
		{"matrix ignores net and interp", func(c *Config) { c.Matrix, c.Net, c.Interp = true, "bogus", "bogus" }, ""},
		{"external server", func(c *Config) { c.Server = "127.0.0.1:7777" }, ""},
		{"no bots", func(c *Config) { c.Bots = 0 }, "-bots 0"},
		{"too many bots", func(c *Config) { c.Bots = 257 }, "-bots 257"},
		{"zero duration", func(c *Config) { c.Duration = 0 }, "-duration"},
		{"negative duration", func(c *Config) { c.Duration = -time.Second }, "-duration"},
		{"unknown preset", func(c *Config) { c.Net = "dialup" }, "unknown network preset"},
		{"custom without settings", func(c *Config) { c.Net = "custom" }, "-net custom needs"},
		{"unknown timeline", func(c *Config) { c.Interp = "fixed" }, "-interp"},
		{"loss above one", func(c *Config) { c.Link.Both.Loss = prob(1.5) }, "loss probability"},
		{"negative jitter", func(c *Config) { c.Link.Both.Jitter = dur(-time.Millisecond) }, "jitter"},
		{"matrix checks overrides", func(c *Config) { c.Matrix = true; c.Link.Both.Reorder = prob(-0.1) }, "reorder probability"},
		{"server without port", func(c *Config) { c.Server = "localhost" }, "-server"},
		{"large arena", func(c *Config) { c.Arena = "large" }, ""},
		{"unknown arena", func(c *Config) { c.Arena = "huge" }, "-arena"},
		{"slow bots", func(c *Config) { c.BotFPS = 10 }, ""},
		{"no frames", func(c *Config) { c.BotFPS = 0 }, "-bot-fps"},
		{"metrics of nothing", func(c *Config) { c.ServerMetrics = "127.0.0.1:9100" }, "-server-metrics needs -server"},
		{"metrics of a server", func(c *Config) { c.Server, c.ServerMetrics = "127.0.0.1:7777", "127.0.0.1:9100" }, ""},
		{"a page of nothing", func(c *Config) { c.Web = "http://127.0.0.1:8080/" }, "-web needs -server"},
		{"a page of a server", func(c *Config) { c.Server, c.Web = "127.0.0.1:7777", "http://127.0.0.1:8080/" }, ""},
		{"a page with no scheme", func(c *Config) { c.Server, c.Web = "127.0.0.1:7777", "127.0.0.1:8080" }, "-web \"127.0.0.1:8080\": want the page's address"},
		{"a page over ftp", func(c *Config) { c.Server, c.Web = "127.0.0.1:7777", "ftp://127.0.0.1/" }, "want the page's address"},
		{"a room", func(c *Config) { c.Room = "Blue-2_b" }, ""},
		{"a room with a space", func(c *Config) { c.Room = "a b" }, "-room: room name \"a b\" has a byte 0x20 at 1"},
		{"a room too long", func(c *Config) { c.Room = strings.Repeat("r", 33) }, "-room: room name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := DefaultConfig()
			tt.mutate(&c)
			err := c.Validate()
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("Validate() = %v, want nil", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("Validate() = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestConditionsApplyOverridesToBothDirections(t *testing.T) {
	c := DefaultConfig()
	lat, loss := 80*time.Millisecond, 0.25
	c.Link.Both.Latency, c.Link.Both.Loss = &lat, &loss
	cond, err := c.conditions("broadband")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []struct {
		name    string
		latency time.Duration
		jitter  time.Duration
		loss    float64
	}{
		{"outbound", cond.Outbound.Latency, cond.Outbound.Jitter, cond.Outbound.Loss},
		{"inbound", cond.Inbound.Latency, cond.Inbound.Jitter, cond.Inbound.Loss},
	} {
		if l.latency != lat || l.loss != loss || l.jitter != 12*time.Millisecond {
			t.Errorf("%s = %v ±%v loss %v, want %v ±12ms (broadband's) loss %v", l.name, l.latency, l.jitter, l.loss, lat, loss)
		}
	}
}

func TestMatrixPresetsSkipPerfectLink(t *testing.T) {
	names := matrixPresets()
	if len(names) < 4 {
		t.Fatalf("matrixPresets() = %v, want at least lan, broadband, wifi-bad, mobile-3g", names)
	}
	for _, n := range names {
		if n == "none" {
			t.Errorf("matrixPresets() = %v, includes none", names)
		}
	}
}
