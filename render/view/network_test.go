package view

import (
	"testing"

	"tanknet/linksim"
)

// TestBriefConditions: every preset has figures in its brief form, wifi-bad's included.
func TestBriefConditions(t *testing.T) {
	want := map[string]string{"none": "nothing added", "wifi-bad": "50±50ms 4% loss"}
	for _, name := range linksim.PresetNames() {
		c, err := linksim.Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		got := BriefConditions(c)
		if w, ok := want[name]; ok && got != w {
			t.Errorf("%s: %q, want %q", name, got, w)
		}
		if name != "none" && (got == "" || got == "nothing added") {
			t.Errorf("%s: %q, want its figures", name, got)
		}
	}
	asym := linksim.Conditions{Outbound: linksim.Link{Latency: 100e6}, Inbound: linksim.Link{Latency: 140e6, Loss: 0.05}}
	if got := BriefConditions(asym); got != "rtt +240ms 5% loss" {
		t.Errorf("up 100 ms, down 140 ms with 5%% loss: %q, want %q", got, "rtt +240ms 5% loss")
	}
}
