package transport

import (
	"flag"
	"fmt"
	"strings"
	"time"
)

// NetFlags are the command-line settings for a link conditioner, shared by tankserver,
// tankclient and tanksim so all three spell them the same way. Register them on a FlagSet,
// parse it, then call Conditions.
type NetFlags struct {
	Preset  string        // a PresetNames name, or "custom" (only the explicit flags)
	Latency time.Duration // one-way delay added in each direction
	Jitter  time.Duration // ± variation of that delay
	Loss    float64       // drop probability per packet and direction, 0..1
	Dup     float64       // duplication probability per packet and direction
	Reorder float64       // reordering probability per packet and direction
	Seed    uint64        // seed for the conditioner's random decisions

	fs *flag.FlagSet // where Register put the flags, to tell which were given
}

// linkFlags are the flags that override a preset's values when given.
var linkFlags = []string{"latency", "jitter", "loss", "dup", "reorder"}

// Register defines -net, -latency, -jitter, -loss, -dup, -reorder and -net-seed on fs.
func (f *NetFlags) Register(fs *flag.FlagSet) {
	f.fs = fs
	if f.Preset == "" {
		f.Preset = "none"
	}
	fs.StringVar(&f.Preset, "net", f.Preset, fmt.Sprintf("simulated network `preset`: %s, or custom", strings.Join(PresetNames(), ", ")))
	fs.DurationVar(&f.Latency, "latency", f.Latency, "simulated one-way `delay` added in each direction (overrides the preset)")
	fs.DurationVar(&f.Jitter, "jitter", f.Jitter, "± `variation` of the simulated delay (overrides the preset)")
	fs.Float64Var(&f.Loss, "loss", f.Loss, "simulated packet loss `probability` per direction, 0..1 (overrides the preset)")
	fs.Float64Var(&f.Dup, "dup", f.Dup, "simulated duplication `probability`, 0..1 (overrides the preset)")
	fs.Float64Var(&f.Reorder, "reorder", f.Reorder, "simulated reordering `probability`, 0..1 (overrides the preset)")
	fs.Uint64Var(&f.Seed, "net-seed", f.Seed, "`seed` for the simulated network's random decisions")
}

// given reports which link flags were set on the command line.
func (f *NetFlags) given() map[string]bool {
	set := map[string]bool{}
	if f.fs != nil {
		f.fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	}
	return set
}

// Name is the preset's name, or "custom" when a link flag overrides any of it.
func (f *NetFlags) Name() string {
	set := f.given()
	for _, n := range linkFlags {
		if set[n] {
			return "custom"
		}
	}
	if f.Preset == "" {
		return "none"
	}
	return f.Preset
}

// Conditions returns the preset's conditions with every link flag given on the command line
// applied to both directions ("-loss 0" removes a preset's loss). "custom" starts from a
// perfect link.
func (f *NetFlags) Conditions() (Conditions, error) {
	var c Conditions
	if f.Preset != "" && f.Preset != "custom" {
		var err error
		if c, err = Preset(f.Preset); err != nil {
			return c, err
		}
	}
	set := f.given()
	for _, l := range []*Link{&c.Outbound, &c.Inbound} {
		if set["latency"] {
			l.Latency = f.Latency
		}
		if set["jitter"] {
			l.Jitter = f.Jitter
		}
		if set["loss"] {
			l.Loss = f.Loss
		}
		if set["dup"] {
			l.Duplicate = f.Dup
		}
		if set["reorder"] {
			l.Reorder = f.Reorder
		}
	}
	if err := c.Validate(); err != nil {
		return c, err
	}
	return c, nil
}
