package tabworker

import (
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"tanknet/client"
	"tanknet/linksim"
)

// DefaultSpec is what a page plays when its URL says nothing more: tankclient's defaults
// (its DefaultConfig), which cmd/tankclient's tests hold this to.
func DefaultSpec(server string) Spec {
	return Spec{Server: server, Name: "player", DialTimeout: 5 * time.Second, Seed: 1, Game: client.DefaultOptions(),
		Network: linksim.Describe("none", linksim.Conditions{})}
}

// PageSpec returns the Spec a page's URL query q asks its worker to play against server
// (the address the page names the server by): name, room, net, bot and report over
// DefaultSpec. The worker reads it for itself as it starts, so it can join while the page's
// own program is still loading; the page reads the same query into its settings and is the
// one that refuses a wrong one to the visitor (cmd/tankclient's parseWebParams, whose tests
// check the two agree). Parameters the worker does not need are left to the page.
func PageSpec(q url.Values, server string) (Spec, error) {
	s := DefaultSpec(server)
	if v := q.Get("name"); v != "" {
		s.Name = v
	}
	s.Room = q.Get("room")
	switch q.Get("bot") {
	case "", "0", "false":
	case "1", "true":
		s.Bot = 1
	default:
		return s, fmt.Errorf("bot=%q: want 1 or 0", q.Get("bot"))
	}
	if v := q.Get("net"); v != "" {
		nf := linksim.NetFlags{Preset: v, Seed: s.Seed}
		path, err := nf.Path()
		if err != nil {
			return s, fmt.Errorf("net=%s: %w", v, err)
		}
		s.Conditions = path.AtClient()
		s.Network = linksim.Describe(nf.Name(), s.Conditions)
	}
	if v := q.Get("report"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return s, fmt.Errorf("report=%q: want a whole number of seconds", v)
		}
		s.ReportAfter = time.Duration(n) * time.Second
	}
	return s, nil
}

// ServerAddr returns the address the KCP session over the carriage names the server by:
// the page's host and port when the host is an IP address, else 0.0.0.0 and the port (a
// browser resolves no names for Go; the carriage has one peer, whatever the address).
func ServerAddr(host string) string {
	if ap, err := netip.ParseAddrPort(host); err == nil {
		return ap.String()
	}
	port := "80"
	if i := strings.LastIndex(host, ":"); i >= 0 && !strings.HasSuffix(host, "]") {
		port = host[i+1:]
	}
	return "0.0.0.0:" + port
}
