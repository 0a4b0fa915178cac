package linksim

import (
	"flag"
	"strings"
	"testing"
	"time"
)

func TestNetFlags_BuiltInCode(t *testing.T) {
	f := NetFlags{Preset: "lan", Latency: 100 * time.Millisecond}
	got, err := f.Path()
	want := Path{Up: Link{Latency: 100 * time.Millisecond, Jitter: time.Millisecond}, Down: Link{Latency: 100 * time.Millisecond, Jitter: time.Millisecond}}
	if err != nil || got != want || f.Name() != "custom" {
		t.Errorf("NetFlags{lan, 100ms}.Path() = %v, %v (name %q); want %v named custom", got, err, f.Name(), want)
	}
}

func TestNetFlags(t *testing.T) {
	threeG := presetLink("mobile-3g")
	lan := presetLink("lan")
	both := func(l Link) Path { return Path{Up: l, Down: l} }
	tests := []struct {
		name    string
		args    []string
		want    Path
		wantErr string
		preset  string // what Name reports
	}{
		{"nothing set is a perfect link", nil, Path{}, "", "none"},
		{"custom needs a link flag", []string{"-net", "custom"}, Path{}, "needs at least one", ""},
		{"preset none", []string{"-net", "none"}, Path{}, "", "none"},
		{"preset", []string{"-net", "mobile-3g"}, both(threeG), "", "mobile-3g"},
		{"one preset each way", []string{"-net", "up=mobile-3g,down=lan"}, Path{Up: threeG, Down: lan}, "", "up=mobile-3g,down=lan"},
		{"directions in either order", []string{"-net", "down=lan, UP=mobile-3g"}, Path{Up: threeG, Down: lan}, "", "up=mobile-3g,down=lan"},
		{"a direction left out is perfect", []string{"-net", "up=mobile-3g"}, Path{Up: threeG}, "", "up=mobile-3g,down=none"},
		{"the same each way is one name", []string{"-net", "up=lan,down=lan"}, both(lan), "", "lan"},
		{"a one-way flag overrides its direction only", []string{"-net", "mobile-3g", "-loss-up", "0.5"},
			Path{Up: Link{Latency: threeG.Latency, Jitter: threeG.Jitter, Loss: 0.5}, Down: threeG}, "", "custom"},
		{"a one-way flag wins over the two-way one", []string{"-latency", "10ms", "-latency-down", "200ms"},
			Path{Up: Link{Latency: 10 * time.Millisecond}, Down: Link{Latency: 200 * time.Millisecond}}, "", "custom"},
		{"custom one way only", []string{"-net", "up=custom,down=lan", "-jitter-up", "30ms"},
			Path{Up: Link{Jitter: 30 * time.Millisecond}, Down: lan}, "", "custom"},
		{"unknown direction", []string{"-net", "sideways=lan"}, Path{}, "up=PRESET or down=PRESET", ""},
		{"a direction twice", []string{"-net", "up=lan,up=none"}, Path{}, "twice", ""},
		{"unknown preset one way", []string{"-net", "up=lan,down=dialup"}, Path{}, "unknown network preset", ""},
		{"down-link probability checked", []string{"-dup-down", "1.5"}, Path{}, "down-link", ""},
		{"explicit only", []string{"-latency", "150ms", "-jitter", "20ms", "-loss", "0.02"},
			both(Link{Latency: 150 * time.Millisecond, Jitter: 20 * time.Millisecond, Loss: 0.02}), "", "custom"},
		{"custom means explicit only", []string{"-net", "custom", "-dup", "0.5", "-reorder", "0.25"},
			both(Link{Duplicate: 0.5, Reorder: 0.25}), "", "custom"},
		{"explicit overrides the preset", []string{"-net", "mobile-3g", "-loss", "0.5"},
			both(Link{Latency: threeG.Latency, Jitter: threeG.Jitter, Loss: 0.5}), "", "custom"},
		{"explicit zero clears the preset's value", []string{"-net", "mobile-3g", "-loss", "0"},
			both(Link{Latency: threeG.Latency, Jitter: threeG.Jitter}), "", "custom"},
		{"unknown preset", []string{"-net", "dialup"}, Path{}, "unknown network preset", ""},
		{"loss above 1", []string{"-loss", "2"}, Path{}, "outside [0, 1]", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var f NetFlags
			fs := flag.NewFlagSet("test", flag.ContinueOnError)
			f.Register(fs)
			if err := fs.Parse(tt.args); err != nil {
				t.Fatal(err)
			}
			got, err := f.Path()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Path(%v) error = %v, want one mentioning %q", tt.args, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("Path(%v) = %v, %v; want %v", tt.args, got, err, tt.want)
			}
			if name := f.Name(); name != tt.preset {
				t.Errorf("Name() after %v = %q, want %q", tt.args, name, tt.preset)
			}
		})
	}
}

// TestPath_SidesSwapDirections: a client's socket sends up and receives down; the server's
// socket sends down and receives up, so the same path puts each link on the right side.
func TestPath_SidesSwapDirections(t *testing.T) {
	p := Path{Up: Link{Latency: 120 * time.Millisecond}, Down: Link{Loss: 0.25}}
	if c := p.AtClient(); c.Outbound != p.Up || c.Inbound != p.Down {
		t.Errorf("AtClient() = %v, want out = up (%v), in = down (%v)", c, p.Up, p.Down)
	}
	if c := p.AtServer(); c.Outbound != p.Down || c.Inbound != p.Up {
		t.Errorf("AtServer() = %v, want out = down (%v), in = up (%v)", c, p.Down, p.Up)
	}
	if got, want := p.String(), "up 120ms, down 0s loss=25%"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got, want := (Path{Up: p.Up, Down: p.Up}).String(), "120ms each way"; got != want {
		t.Errorf("String() of a symmetric path = %q, want %q", got, want)
	}
}
