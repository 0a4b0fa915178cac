package linksim

import (
	"fmt"
	"strings"
)

// The two directions of a client's link are named from the client's side: the up-link
// carries what the client sends to the server (inputs, fires), the down-link what the
// server sends back (snapshots). Conditions are stated from the side whose socket they
// wrap, so a client puts ClientConditions under its socket, and a server that impairs
// every client's link from its own socket puts ServerConditions (Up and Down swapped)
// under its own.

// Path is a client's link to the server, each direction on its own.
type Path struct {
	Up   Link // client to server
	Down Link // server to client
}

// AtClient returns the Conditions for the client's own socket: what it writes goes up.
func (p Path) AtClient() Conditions { return Conditions{Outbound: p.Up, Inbound: p.Down} }

// AtServer returns the Conditions for the server's socket: what it writes goes down.
func (p Path) AtServer() Conditions { return Conditions{Outbound: p.Down, Inbound: p.Up} }

// String formats the path, for example "up 120ms±10ms loss=5%, down 1ms±1ms", or a single
// link with "each way" when both directions agree.
func (p Path) String() string {
	if p.Up == p.Down {
		return p.Up.String() + " each way"
	}
	return "up " + p.Up.String() + ", down " + p.Down.String()
}

// NetSpec is a parsed -net value: one preset for both directions, or one per direction.
type NetSpec struct {
	Up, Down string // preset names (PresetNames or CustomPreset), lower case
}

// ParseNet reads a -net value: a preset name for both directions ("wifi-bad"), or
// "up=NAME,down=NAME" with either part left out meaning "none" ("up=mobile-3g" slows only
// what the client sends). Names are checked against PresetNames and CustomPreset.
func ParseNet(s string) (NetSpec, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return NetSpec{Up: "none", Down: "none"}, nil
	}
	if !strings.Contains(s, "=") {
		if err := checkName(s); err != nil {
			return NetSpec{}, err
		}
		return NetSpec{Up: s, Down: s}, nil
	}
	spec := NetSpec{Up: "none", Down: "none"}
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		dir, name, ok := strings.Cut(strings.TrimSpace(part), "=")
		dir, name = strings.TrimSpace(dir), strings.TrimSpace(name)
		if !ok || (dir != "up" && dir != "down") {
			return NetSpec{}, fmt.Errorf("linksim: -net %q: each part is up=PRESET or down=PRESET, not %q", s, part)
		}
		if seen[dir] {
			return NetSpec{}, fmt.Errorf("linksim: -net %q names the %s-link twice", s, dir)
		}
		seen[dir] = true
		if err := checkName(name); err != nil {
			return NetSpec{}, fmt.Errorf("linksim: -net %q: %s: %w", s, dir, err)
		}
		if dir == "up" {
			spec.Up = name
		} else {
			spec.Down = name
		}
	}
	return spec, nil
}

// String is the spec as -net takes it: the one name when both directions agree.
func (s NetSpec) String() string {
	if s.Up == s.Down {
		return s.Up
	}
	return "up=" + s.Up + ",down=" + s.Down
}

func checkName(name string) error {
	if name == CustomPreset {
		return nil
	}
	_, err := Preset(name)
	if err != nil {
		return fmt.Errorf("%w (or %q)", err, CustomPreset)
	}
	return nil
}

// presetLink returns one direction of a named preset (every preset is symmetric); custom
// starts from a perfect link.
func presetLink(name string) Link {
	if name == CustomPreset {
		return Link{}
	}
	c, _ := Preset(name) // checked by ParseNet
	return c.Outbound
}
