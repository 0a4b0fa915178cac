package linksim

import (
	"fmt"
	"strings"
	"time"
)

// Symmetric returns Conditions that apply l in both directions. l.Latency is one-way, so
// the round trip grows by twice l.Latency; each probability applies to every packet in
// each direction, so a request and its reply both risk l.Loss.
func Symmetric(l Link) Conditions { return Conditions{Outbound: l, Inbound: l} }

// preset is one named network profile. Every preset is symmetric and its latency is
// one-way, so the round trip it adds is twice the latency shown.
type preset struct {
	name string
	link Link
}

// presets lists the profiles from best to worst; PresetNames keeps this order.
//
// The delay, jitter and loss figures come from Unity's network simulator presets
// (com.unity.netcode SimulatorPreset, "last updated Q3 2022", and com.unity.multiplayer.tools
// NetworkSimulatorPresets). Unity's simulator applies its delay to every packet sent and to
// every packet received, so its delay is per direction here too. Unity has no duplication
// or reordering settings; where a preset has them, they are ours and say so.
var presets = []preset{
	// A perfect link: the conditioner changes nothing.
	{name: "none"},

	// Unity netcode "LAN [Local Area Network]": 1 ms delay, 1 ms jitter. Unity also lists
	// 1% loss, which we leave out: a switched LAN practically never drops, and a LAN
	// profile that retransmits would hide what the other profiles show.
	{name: "lan", link: Link{Latency: 1 * time.Millisecond, Jitter: 1 * time.Millisecond}},

	// Unity multiplayer tools "Home Broadband [WIFI, Cable, Console, PC]": 32 ms delay,
	// 12 ms jitter, 2% loss.
	{name: "broadband", link: Link{
		Latency: 32 * time.Millisecond, Jitter: 12 * time.Millisecond, Loss: 0.02,
	}},

	// Delay and jitter from Unity multiplayer tools "Home Broadband with Congested
	// Network" (50 ms, 50 ms jitter); loss from Unity netcode "Broadband [WIFI] / Regional
	// [95th Percentile]" (1% base + 3%). The 1% duplicates and 2% reordering are ours:
	// Wi-Fi link-layer retries both duplicate and reorder frames.
	{name: "wifi-bad", link: Link{
		Latency: 50 * time.Millisecond, Jitter: 50 * time.Millisecond,
		Loss: 0.04, Duplicate: 0.01, Reorder: 0.02,
	}},

	// Unity netcode "4G [4G, LTE, '13]": 35 ms delay, 5 ms jitter, 3% loss.
	{name: "mobile-4g", link: Link{
		Latency: 35 * time.Millisecond, Jitter: 5 * time.Millisecond, Loss: 0.03,
	}},

	// Unity netcode "3G [WCDMA & UMTS, '03]": 120 ms delay, 10 ms jitter, 5% loss, which
	// Unity marks unsuitable for real-time play. Round trip about 240 ms.
	{name: "mobile-3g", link: Link{
		Latency: 120 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.05,
	}},
}

// Preset returns the named network profile. Names are matched ignoring case and
// surrounding space; PresetNames lists them. Every preset applies the same Link in both
// directions, and its latency is one-way.
func Preset(name string) (Conditions, error) {
	key := strings.ToLower(strings.TrimSpace(name))
	for _, p := range presets {
		if p.name == key {
			return Symmetric(p.link), nil
		}
	}
	return Conditions{}, fmt.Errorf("linksim: unknown network preset %q (valid: %s)",
		name, strings.Join(PresetNames(), ", "))
}

// PresetNames returns the names Preset accepts, from the best network to the worst. The
// order is stable, so it suits flag help and hotkey cycling.
func PresetNames() []string {
	names := make([]string, len(presets))
	for i, p := range presets {
		names[i] = p.name
	}
	return names
}
