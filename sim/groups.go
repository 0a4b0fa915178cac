package sim

import (
	"fmt"
	"strconv"
	"strings"

	"tanknet/linksim"
)

// Group is a share of a run's bots that play on a network of their own: tanksim's
// -group N:NET, where NET is anything -net takes ("wifi-bad", "up=mobile-3g,down=lan").
// A run with groups reports every figure for the whole run and again for each group.
type Group struct {
	Bots int    // how many bots, at least 1
	Net  string // the group's -net value; Config.Link's overrides apply to it too
}

// ParseGroup reads a -group value, "N:NET".
func ParseGroup(s string) (Group, error) {
	n, net, ok := strings.Cut(strings.TrimSpace(s), ":")
	bots, err := strconv.Atoi(strings.TrimSpace(n))
	if !ok || err != nil || bots < 1 {
		return Group{}, fmt.Errorf("tanksim: -group %q: want BOTS:NET, such as 4:wifi-bad or 4:up=mobile-3g,down=lan", s)
	}
	if _, err := linksim.ParseNet(net); err != nil {
		return Group{}, fmt.Errorf("tanksim: -group %q: %w", s, err)
	}
	return Group{Bots: bots, Net: strings.TrimSpace(net)}, nil
}

// String is the group as -group takes it.
func (g Group) String() string { return strconv.Itoa(g.Bots) + ":" + g.Net }

// groupSpec is one group of a run, resolved: bots first..first+n-1 play under cond.
type groupSpec struct {
	net      string
	cond     linksim.Conditions
	first, n int
}

// resolveGroups resolves c.Groups in order, bot numbers running on from one group to the
// next.
func (c Config) resolveGroups() ([]groupSpec, error) {
	var out []groupSpec
	first := 0
	for _, g := range c.Groups {
		cond, err := c.conditions(g.Net)
		if err != nil {
			return nil, fmt.Errorf("%w (in -group %s)", err, g)
		}
		spec, _ := linksim.ParseNet(g.Net) // checked by conditions
		out = append(out, groupSpec{net: spec.String(), cond: cond, first: first, n: g.Bots})
		first += g.Bots
	}
	return out, nil
}

// groupsLabel names a run with groups, e.g. "4 wifi-bad + 4 up=mobile-3g,down=lan".
func groupsLabel(groups []groupSpec) string {
	parts := make([]string, len(groups))
	for i, g := range groups {
		parts[i] = fmt.Sprintf("%d %s", g.n, g.net)
	}
	return strings.Join(parts, " + ")
}

// botNet returns bot i's own network: its group's with -group, the run's otherwise.
func (s runSpec) botNet(i int) (name string, cond linksim.Conditions) {
	for _, g := range s.groups {
		if i >= g.first && i < g.first+g.n {
			return g.net, g.cond
		}
	}
	return s.profile, s.cond
}

// condFor returns the conditions under bot i's socket.
func (s runSpec) condFor(i int) linksim.Conditions {
	_, c := s.botNet(i)
	return c
}

// netFor describes bot i's network for its client recording, as the window's title does:
// the profile's name and what it adds each way, or up and down when they differ.
func (s runSpec) netFor(i int) string {
	name, c := s.botNet(i)
	switch {
	case c == (linksim.Conditions{}):
		return "network " + name + " (nothing added)"
	case c.Outbound == c.Inbound:
		return "network " + name + ": " + c.Outbound.String() + " each way"
	}
	return "network " + name + ": up " + c.Outbound.String() + ", down " + c.Inbound.String()
}

// groupReports builds one Report per group from the group's own bots, as if they had been
// the whole run: the input figures are of the group's own players; the server's tick time
// and CPU are the shared server's and so the same in every group.
func groupReports(d *runData) []Report {
	var out []Report
	for _, g := range d.spec.groups {
		sub := *d
		sub.spec.groups = nil
		sub.spec.profile, sub.spec.cond = g.net, g.cond
		sub.spec.cfg.Bots = g.n
		sub.bots = d.bots[g.first : g.first+g.n]
		sub.notes = nil
		r := buildReport(&sub)
		r.Clients = nil // the whole run's report lists every bot once
		out = append(out, r)
	}
	return out
}

// linkLabel describes the conditioner under a run's bots for its report.
func linkLabel(s runSpec) string {
	if len(s.groups) > 0 {
		return "per group"
	}
	return s.cond.String()
}
