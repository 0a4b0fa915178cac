package transport

import (
	"flag"
	"fmt"
	"time"
)

// NetFlags are the command-line settings for a link conditioner, shared by tankserver,
// tankclient and tanksim so all three spell them the same way.
type NetFlags struct {
	Preset  string        // a PresetNames name, "custom" or "" (no preset)
	Latency time.Duration // one-way delay each direction; overrides the preset's when > 0
	Jitter  time.Duration // ± variation of that delay; overrides when > 0
	Loss    float64       // drop probability per packet, 0..1; overrides when > 0
	Dup     float64       // duplication probability per packet; overrides when > 0
	Reorder float64       // reordering probability per packet; overrides when > 0
	Seed    uint64        // seed for the conditioner's random decisions
}

// Register defines -net, -latency, -jitter, -loss, -dup, -reorder and -net-seed on fs.
func (f *NetFlags) Register(fs *flag.FlagSet) {
	fs.StringVar(&f.Preset, "net", f.Preset, fmt.Sprintf("simulated network `preset`: %v, or custom (only the flags below)", PresetNames()))
	fs.DurationVar(&f.Latency, "latency", f.Latency, "simulated one-way latency added in each direction (overrides the preset)")
	fs.DurationVar(&f.Jitter, "jitter", f.Jitter, "± variation of the simulated latency (overrides the preset)")
	fs.Float64Var(&f.Loss, "loss", f.Loss, "simulated packet loss probability per direction, 0..1 (overrides the preset)")
	fs.Float64Var(&f.Dup, "dup", f.Dup, "simulated packet duplication probability, 0..1 (overrides the preset)")
	fs.Float64Var(&f.Reorder, "reorder", f.Reorder, "simulated packet reordering probability, 0..1 (overrides the preset)")
	fs.Uint64Var(&f.Seed, "net-seed", f.Seed, "seed for the simulated network's random decisions")
}

// Conditions returns the preset's conditions with every explicitly set value applied to
// both directions. The zero NetFlags gives the zero (perfect) Conditions.
func (f NetFlags) Conditions() (Conditions, error) {
	var c Conditions
	if f.Preset != "" && f.Preset != "custom" {
		var err error
		if c, err = Preset(f.Preset); err != nil {
			return c, err
		}
	}
	for _, l := range []*Link{&c.Outbound, &c.Inbound} {
		if f.Latency > 0 {
			l.Latency = f.Latency
		}
		if f.Jitter > 0 {
			l.Jitter = f.Jitter
		}
		if f.Loss > 0 {
			l.Loss = f.Loss
		}
		if f.Dup > 0 {
			l.Duplicate = f.Dup
		}
		if f.Reorder > 0 {
			l.Reorder = f.Reorder
		}
	}
	if err := c.Validate(); err != nil {
		return c, err
	}
	return c, nil
}
