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

// LinkOverride holds the link settings given explicitly, for example on the command line.
// Each applies to both directions; a nil field keeps the preset's value. Latency and jitter
// are one-way; probabilities are per packet, in [0, 1].
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

// ConditionsFor returns preset name's conditions with o applied to both directions. The name
// CustomPreset starts from a perfect link and needs at least one override.
func ConditionsFor(name string, o LinkOverride) (Conditions, error) {
	var c Conditions
	if strings.EqualFold(strings.TrimSpace(name), CustomPreset) {
		if !o.Any() {
			return c, errors.New("linksim: -net custom needs at least one of -latency, -jitter, -loss, -dup, -reorder")
		}
	} else {
		var err error
		if c, err = Preset(name); err != nil {
			return c, fmt.Errorf("%w (or %q)", err, CustomPreset)
		}
	}
	c.Outbound, c.Inbound = o.apply(c.Outbound), o.apply(c.Inbound)
	return c, c.Validate()
}

// NetFlags are the command-line settings for a link conditioner, shared by tankserver and
// tankclient. Register them on a FlagSet, parse it, then call Conditions.
type NetFlags struct {
	Preset  string        // a PresetNames name, or CustomPreset
	Latency time.Duration // one-way delay added in each direction
	Jitter  time.Duration // ± variation of that delay
	Loss    float64       // drop probability per packet and direction, 0..1
	Dup     float64       // duplication probability per packet and direction
	Reorder float64       // reordering probability per packet and direction
	Seed    uint64        // seed for the conditioner's random decisions

	fs *flag.FlagSet // where Register put the flags, to tell which were given
}

// Register defines -net, -latency, -jitter, -loss, -dup, -reorder and -net-seed on fs.
func (f *NetFlags) Register(fs *flag.FlagSet) {
	if f.Preset == "" {
		f.Preset = "none"
	}
	fs.StringVar(&f.Preset, "net", f.Preset, fmt.Sprintf("simulated network `preset`: %s, or custom", strings.Join(PresetNames(), ", ")))
	f.RegisterLink(fs)
	fs.Uint64Var(&f.Seed, "net-seed", f.Seed, "`seed` for the simulated network's random decisions")
}

// RegisterLink defines only the link flags, -latency, -jitter, -loss, -dup and -reorder, on
// fs, for a program that names its preset and seeds its network its own way; Override
// returns those given.
func (f *NetFlags) RegisterLink(fs *flag.FlagSet) {
	f.fs = fs
	fs.DurationVar(&f.Latency, "latency", f.Latency, "simulated one-way `delay` added in each direction (overrides the preset)")
	fs.DurationVar(&f.Jitter, "jitter", f.Jitter, "± `variation` of the simulated delay (overrides the preset)")
	fs.Float64Var(&f.Loss, "loss", f.Loss, "simulated packet loss `probability` per direction, 0..1 (overrides the preset)")
	fs.Float64Var(&f.Dup, "dup", f.Dup, "simulated duplication `probability`, 0..1 (overrides the preset)")
	fs.Float64Var(&f.Reorder, "reorder", f.Reorder, "simulated reordering `probability`, 0..1 (overrides the preset)")
}

// Override returns the link flags that were given on the command line. A NetFlags that was
// never registered on a FlagSet (one built in code) overrides with its non-zero fields.
func (f *NetFlags) Override() LinkOverride {
	var o LinkOverride
	if f.fs == nil {
		if f.Latency != 0 {
			o.Latency = &f.Latency
		}
		if f.Jitter != 0 {
			o.Jitter = &f.Jitter
		}
		if f.Loss != 0 {
			o.Loss = &f.Loss
		}
		if f.Dup != 0 {
			o.Duplicate = &f.Dup
		}
		if f.Reorder != 0 {
			o.Reorder = &f.Reorder
		}
		return o
	}
	f.fs.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "latency":
			o.Latency = &f.Latency
		case "jitter":
			o.Jitter = &f.Jitter
		case "loss":
			o.Loss = &f.Loss
		case "dup":
			o.Duplicate = &f.Dup
		case "reorder":
			o.Reorder = &f.Reorder
		}
	})
	return o
}

// Name is the preset's name, or "custom" when a link flag overrides any of it.
func (f *NetFlags) Name() string {
	if f.Override().Any() {
		return CustomPreset
	}
	return f.Preset
}

// Conditions returns the preset's conditions with every link flag given on the command line
// applied to both directions ("-loss 0" removes a preset's loss).
func (f *NetFlags) Conditions() (Conditions, error) {
	if f.Preset == "" {
		f.Preset = "none"
	}
	return ConditionsFor(f.Preset, f.Override())
}
