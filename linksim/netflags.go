package linksim

import (
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"
)

// CustomPreset is the -net name for "no preset: only the link flags given".
const CustomPreset = "custom"

// LinkOverride holds the settings of one link given explicitly, for example on the command
// line; a nil field keeps the preset's value. Latency and jitter are one-way; probabilities
// are per packet, in [0, 1].
type LinkOverride struct {
	Latency, Jitter          *time.Duration
	Loss, Duplicate, Reorder *float64
}

// Any reports whether o overrides at least one setting.
func (o LinkOverride) Any() bool {
	return o.Latency != nil || o.Jitter != nil || o.Loss != nil || o.Duplicate != nil || o.Reorder != nil
}

// apply returns l with the overridden settings replaced.
func (o LinkOverride) apply(l Link) Link {
	if o.Latency != nil {
		l.Latency = *o.Latency
	}
	if o.Jitter != nil {
		l.Jitter = *o.Jitter
	}
	if o.Loss != nil {
		l.Loss = *o.Loss
	}
	if o.Duplicate != nil {
		l.Duplicate = *o.Duplicate
	}
	if o.Reorder != nil {
		l.Reorder = *o.Reorder
	}
	return l
}

// Overrides are the link settings given explicitly for a path: Both applies to the two
// directions, Up and Down to one each, and a direction's own setting wins over Both's.
type Overrides struct {
	Both, Up, Down LinkOverride
}

// Any reports whether o overrides at least one setting of either direction.
func (o Overrides) Any() bool { return o.Both.Any() || o.Up.Any() || o.Down.Any() }

// PathFor returns the path a -net value describes (see ParseNet), with o applied. The name
// CustomPreset starts that direction from a perfect link and needs at least one override.
func PathFor(net string, o Overrides) (Path, error) {
	spec, err := ParseNet(net)
	if err != nil {
		return Path{}, err
	}
	if (spec.Up == CustomPreset || spec.Down == CustomPreset) && !o.Any() {
		return Path{}, errors.New("linksim: -net custom needs at least one of -latency, -jitter, -loss, -dup, -reorder (or their -up/-down forms)")
	}
	p := Path{
		Up:   o.Up.apply(o.Both.apply(presetLink(spec.Up))),
		Down: o.Down.apply(o.Both.apply(presetLink(spec.Down))),
	}
	if err := p.Up.validate("up-link"); err != nil {
		return p, err
	}
	return p, p.Down.validate("down-link")
}

// linkValues are one set of link flags' values.
type linkValues struct {
	Latency, Jitter    time.Duration
	Loss, Dup, Reorder float64
}

// NetFlags are the command-line settings for a link conditioner, shared by the commands.
// Register them on a FlagSet, parse it, then call Path. Every link flag comes in three
// forms: -latency sets both directions, -latency-up only what the client sends, and
// -latency-down only what the server sends.
type NetFlags struct {
	// Preset is a -net value: a preset name (PresetNames), CustomPreset, or
	// "up=NAME,down=NAME" (ParseNet).
	Preset string
	// Latency, Jitter, Loss, Dup and Reorder are the link flags for both directions: one-way
	// delay, its ± variation, and the drop, duplication and reordering probabilities (0..1).
	Latency time.Duration
	Jitter  time.Duration
	Loss    float64
	Dup     float64
	Reorder float64
	// Up and Down are the same flags for one direction only.
	Up, Down linkValues
	Seed     uint64 // seed for the conditioner's random decisions

	fs *flag.FlagSet // where Register put the flags, to tell which were given
}

// Register defines -net, the link flags (see RegisterLink) and -net-seed on fs.
func (f *NetFlags) Register(fs *flag.FlagSet) {
	if f.Preset == "" {
		f.Preset = "none"
	}
	fs.StringVar(&f.Preset, "net", f.Preset, fmt.Sprintf("simulated network `preset` for both directions (%s, or custom), or up=PRESET,down=PRESET where up is what the client sends", strings.Join(PresetNames(), ", ")))
	f.RegisterLink(fs)
	fs.Uint64Var(&f.Seed, "net-seed", f.Seed, "`seed` for the simulated network's random decisions")
}

// RegisterLink defines only the link flags on fs, -latency, -jitter, -loss, -dup and
// -reorder each with its -up and -down form, for a program that names its preset and seeds
// its network its own way; Override returns those given.
func (f *NetFlags) RegisterLink(fs *flag.FlagSet) {
	f.fs = fs
	fs.DurationVar(&f.Latency, "latency", f.Latency, "simulated one-way `delay` added in each direction (overrides the preset)")
	fs.DurationVar(&f.Jitter, "jitter", f.Jitter, "± `variation` of the simulated delay (overrides the preset)")
	fs.Float64Var(&f.Loss, "loss", f.Loss, "simulated packet loss `probability` per direction, 0..1 (overrides the preset)")
	fs.Float64Var(&f.Dup, "dup", f.Dup, "simulated duplication `probability`, 0..1 (overrides the preset)")
	fs.Float64Var(&f.Reorder, "reorder", f.Reorder, "simulated reordering `probability`, 0..1 (overrides the preset)")
	for _, d := range []struct {
		suffix, what string
		v            *linkValues
	}{{"-up", "client to server only", &f.Up}, {"-down", "server to client only", &f.Down}} {
		fs.DurationVar(&d.v.Latency, "latency"+d.suffix, d.v.Latency, "like -latency, "+d.what)
		fs.DurationVar(&d.v.Jitter, "jitter"+d.suffix, d.v.Jitter, "like -jitter, "+d.what)
		fs.Float64Var(&d.v.Loss, "loss"+d.suffix, d.v.Loss, "like -loss, "+d.what)
		fs.Float64Var(&d.v.Dup, "dup"+d.suffix, d.v.Dup, "like -dup, "+d.what)
		fs.Float64Var(&d.v.Reorder, "reorder"+d.suffix, d.v.Reorder, "like -reorder, "+d.what)
	}
}

// Override returns the link flags that were given on the command line. A NetFlags that was
// never registered on a FlagSet (one built in code) overrides with its non-zero fields.
func (f *NetFlags) Override() Overrides {
	var o Overrides
	both := linkValues{f.Latency, f.Jitter, f.Loss, f.Dup, f.Reorder}
	if f.fs == nil {
		o.Both, o.Up, o.Down = nonZero(&both), nonZero(&f.Up), nonZero(&f.Down)
		return o
	}
	f.fs.Visit(func(fl *flag.Flag) {
		name, dir, _ := strings.Cut(fl.Name, "-")
		target, values := &o.Both, &both
		switch dir {
		case "up":
			target, values = &o.Up, &f.Up
		case "down":
			target, values = &o.Down, &f.Down
		}
		switch name {
		case "latency":
			target.Latency = &values.Latency
		case "jitter":
			target.Jitter = &values.Jitter
		case "loss":
			target.Loss = &values.Loss
		case "dup":
			target.Duplicate = &values.Dup
		case "reorder":
			target.Reorder = &values.Reorder
		}
	})
	return o
}

// nonZero overrides with v's non-zero values.
func nonZero(v *linkValues) LinkOverride {
	var o LinkOverride
	if v.Latency != 0 {
		o.Latency = &v.Latency
	}
	if v.Jitter != 0 {
		o.Jitter = &v.Jitter
	}
	if v.Loss != 0 {
		o.Loss = &v.Loss
	}
	if v.Dup != 0 {
		o.Duplicate = &v.Dup
	}
	if v.Reorder != 0 {
		o.Reorder = &v.Reorder
	}
	return o
}

// Name is the -net value in force ("wifi-bad", "up=mobile-3g,down=lan"), or "custom" when a
// link flag overrides any of it.
func (f *NetFlags) Name() string {
	if f.Override().Any() {
		return CustomPreset
	}
	if spec, err := ParseNet(f.Preset); err == nil {
		return spec.String()
	}
	return f.Preset
}

// Path returns the -net path with every link flag given on the command line applied
// ("-loss 0" removes a preset's loss in both directions, "-loss-up 0" only going up).
func (f *NetFlags) Path() (Path, error) {
	if f.Preset == "" {
		f.Preset = "none"
	}
	return PathFor(f.Preset, f.Override())
}

// Describe says in a few words what preset's conditions c add to a link, as a window's pane
// titles it: "network wifi-bad: up ..., down ...".
func Describe(preset string, c Conditions) string {
	switch {
	case c == (Conditions{}):
		return "network " + preset + " (nothing added)"
	case c.Outbound == c.Inbound:
		return "network " + preset + ": " + c.Outbound.String() + " each way"
	}
	return "network " + preset + ": up " + c.Outbound.String() + ", down " + c.Inbound.String()
}
