package linksim

import (
	"flag"
	"strings"
	"testing"
	"time"
)

func TestNetFlags_BuiltInCode(t *testing.T) {
	f := NetFlags{Preset: "lan", Latency: 100 * time.Millisecond}
	got, err := f.Conditions()
	want := Symmetric(Link{Latency: 100 * time.Millisecond, Jitter: time.Millisecond})
	if err != nil || got != want || f.Name() != "custom" {
		t.Errorf("NetFlags{lan, 100ms}.Conditions() = %v, %v (name %q); want %v named custom", got, err, f.Name(), want)
	}
}

func TestNetFlags(t *testing.T) {
	threeG, _ := Preset("mobile-3g")
	tests := []struct {
		name    string
		args    []string
		want    Conditions
		wantErr string
		preset  string // what Name reports
	}{
		{"nothing set is a perfect link", nil, Conditions{}, "", "none"},
		{"custom needs a link flag", []string{"-net", "custom"}, Conditions{}, "needs at least one", ""},
		{"preset none", []string{"-net", "none"}, Conditions{}, "", "none"},
		{"preset", []string{"-net", "mobile-3g"}, threeG, "", "mobile-3g"},
		{"explicit only", []string{"-latency", "150ms", "-jitter", "20ms", "-loss", "0.02"},
			Symmetric(Link{Latency: 150 * time.Millisecond, Jitter: 20 * time.Millisecond, Loss: 0.02}), "", "custom"},
		{"custom means explicit only", []string{"-net", "custom", "-dup", "0.5", "-reorder", "0.25"},
			Symmetric(Link{Duplicate: 0.5, Reorder: 0.25}), "", "custom"},
		{"explicit overrides the preset", []string{"-net", "mobile-3g", "-loss", "0.5"},
			Symmetric(Link{Latency: threeG.Outbound.Latency, Jitter: threeG.Outbound.Jitter, Loss: 0.5}), "", "custom"},
		{"explicit zero clears the preset's value", []string{"-net", "mobile-3g", "-loss", "0"},
			Symmetric(Link{Latency: threeG.Outbound.Latency, Jitter: threeG.Outbound.Jitter}), "", "custom"},
		{"unknown preset", []string{"-net", "dialup"}, Conditions{}, "unknown network preset", ""},
		{"loss above 1", []string{"-loss", "2"}, Conditions{}, "outside [0, 1]", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var f NetFlags
			fs := flag.NewFlagSet("test", flag.ContinueOnError)
			f.Register(fs)
			if err := fs.Parse(tt.args); err != nil {
				t.Fatal(err)
			}
			got, err := f.Conditions()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Conditions(%v) error = %v, want one mentioning %q", tt.args, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("Conditions(%v) = %v, %v; want %v", tt.args, got, err, tt.want)
			}
			if name := f.Name(); name != tt.preset {
				t.Errorf("Name() after %v = %q, want %q", tt.args, name, tt.preset)
			}
		})
	}
}
