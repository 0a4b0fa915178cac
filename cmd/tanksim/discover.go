package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/netip"
	"strings"
	"time"

	"tanknet/discovery"
)

// discoverConfig is tanksim -discover: one round of LAN discovery, printed as JSON.
type discoverConfig struct {
	on      bool
	timeout time.Duration // how long the round waits for answers
	to      string        // comma-separated addresses to ask; empty: every broadcast address and the loopback
	from    string        // the local UDP address to ask from; empty: any
}

func defaultDiscoverConfig() discoverConfig { return discoverConfig{timeout: time.Second} }

func (d *discoverConfig) register(fs *flag.FlagSet) {
	fs.BoolVar(&d.on, "discover", false, "look for tankservers on the LAN instead of measuring: broadcast to UDP ports 47770-47779, print every server that answers as JSON")
	fs.DurationVar(&d.timeout, "discover-timeout", d.timeout, "how `long` -discover waits for answers (the request goes again halfway through)")
	fs.StringVar(&d.to, "discover-to", "", "with -discover, ask these `addresses` (comma-separated IPs) instead of every broadcast address and 127.0.0.1")
	fs.StringVar(&d.from, "discover-from", "", "with -discover, the local UDP `address` to ask from; empty: any")
}

func (d discoverConfig) validate() error {
	if d.timeout <= 0 {
		return fmt.Errorf("-discover-timeout %v must be positive", d.timeout)
	}
	_, err := d.targets()
	return err
}

// targets returns -discover-to's addresses, none when it is empty.
func (d discoverConfig) targets() ([]netip.Addr, error) {
	var out []netip.Addr
	for _, s := range strings.Split(d.to, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil {
			return nil, fmt.Errorf("-discover-to %q: %q is not an IP address", d.to, s)
		}
		out = append(out, a)
	}
	return out, nil
}

// discover runs one round and prints the servers found as {"servers": [...]}.
func discover(ctx context.Context, d discoverConfig, stdout io.Writer) error {
	cfg := discovery.DefaultBrowseConfig()
	cfg.Wait, cfg.Refresh, cfg.Local = d.timeout, d.timeout, d.from
	targets, err := d.targets()
	if err != nil {
		return err
	}
	cfg.Targets = targets
	list, err := discovery.Discover(ctx, cfg)
	if err != nil {
		return fmt.Errorf("-discover: %w", err)
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Servers []discovery.Server `json:"servers"`
	}{list})
}
