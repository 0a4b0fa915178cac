package linksim

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestPresetNamesAreStableAndValid(t *testing.T) {
	want := []string{"none", "lan", "broadband", "wifi-bad", "mobile-4g", "mobile-3g"}
	if got := PresetNames(); !slices.Equal(got, want) {
		t.Fatalf("PresetNames() = %q, want %q", got, want)
	}
	for _, name := range PresetNames() {
		c, err := Preset(name)
		if err != nil {
			t.Fatalf("Preset(%q) = %v", name, err)
		}
		if err := c.Validate(); err != nil {
			t.Errorf("Preset(%q) is invalid: %v", name, err)
		}
		if c.Outbound != c.Inbound {
			t.Errorf("Preset(%q) = %v, want the same link both ways", name, c)
		}
	}
	// Callers may not reorder the package's list through the returned slice.
	PresetNames()[0] = "changed"
	if PresetNames()[0] != "none" {
		t.Fatal("modifying the result of PresetNames changed the presets")
	}
}

func TestPreset(t *testing.T) {
	tests := []struct {
		name string
		arg  string
		want Link // each way
	}{
		{name: "none is a perfect link", arg: "none", want: Link{}},
		{name: "lan", arg: "lan", want: Link{Latency: time.Millisecond, Jitter: time.Millisecond}},
		{name: "broadband", arg: "broadband", want: Link{Latency: 32 * time.Millisecond, Jitter: 12 * time.Millisecond, Loss: 0.02}},
		{name: "mobile-3g is 120 ms each way", arg: "mobile-3g", want: Link{Latency: 120 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.05}},
		{name: "case and space are ignored", arg: "  Mobile-3G ", want: Link{Latency: 120 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.05}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Preset(tt.arg)
			if err != nil {
				t.Fatalf("Preset(%q) = %v", tt.arg, err)
			}
			if want := Symmetric(tt.want); got != want {
				t.Errorf("Preset(%q) = %v, want %v", tt.arg, got, want)
			}
		})
	}
}

func TestPresetUnknownNameListsValidOnes(t *testing.T) {
	_, err := Preset("dialup")
	if err == nil {
		t.Fatal(`Preset("dialup") succeeded`)
	}
	msg := err.Error()
	if !strings.Contains(msg, `"dialup"`) {
		t.Errorf("error %q does not name the unknown preset", msg)
	}
	for _, name := range PresetNames() {
		if !strings.Contains(msg, name) {
			t.Errorf("error %q does not list %q", msg, name)
		}
	}
}

func TestSymmetric(t *testing.T) {
	l := Link{Latency: 100 * time.Millisecond, Jitter: 20 * time.Millisecond, Loss: 0.1, Duplicate: 0.01, Reorder: 0.02}
	tests := []struct {
		name        string
		got         Conditions
		wantEachWay Link
		wantRTT     time.Duration
	}{
		{name: "symmetric adds the latency each way", got: Symmetric(l), wantEachWay: l, wantRTT: 200 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got.Outbound != tt.wantEachWay || tt.got.Inbound != tt.wantEachWay {
				t.Errorf("conditions = %v, want %v each way", tt.got, tt.wantEachWay)
			}
			if got := tt.got.AddedRTT(); got != tt.wantRTT {
				t.Errorf("AddedRTT() = %v, want %v", got, tt.wantRTT)
			}
		})
	}
}

func ExamplePreset() {
	for _, name := range PresetNames() {
		c, _ := Preset(name)
		fmt.Printf("%-10s each way %-40s adds %v to the round trip\n", name, c.Outbound, c.AddedRTT())
	}
	// Output:
	// none       each way 0s                                       adds 0s to the round trip
	// lan        each way 1ms±1ms                                  adds 2ms to the round trip
	// broadband  each way 32ms±12ms loss=2%                        adds 64ms to the round trip
	// wifi-bad   each way 50ms±50ms loss=4% dup=1% reorder=2%      adds 100ms to the round trip
	// mobile-4g  each way 35ms±5ms loss=3%                         adds 70ms to the round trip
	// mobile-3g  each way 120ms±10ms loss=5%                       adds 240ms to the round trip
}
