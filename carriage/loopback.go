//go:build !js

package carriage

import (
	"net"
	"net/netip"

	"github.com/pion/ice/v4"
	"github.com/pion/webrtc/v4"
)

// LoopbackAPI returns a pion API whose peer connections gather loopback candidates only
// and send nothing to the LAN (no mDNS): a Dialer's API for tests and tools that dial a
// server on the same machine and must reach 127.0.0.1 and nothing else.
func LoopbackAPI() *webrtc.API {
	var se webrtc.SettingEngine
	se.SetIPFilter(func(ip net.IP) bool { return ip.IsLoopback() })
	se.SetIncludeLoopbackCandidate(true)
	se.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeUDP4})
	se.SetICEMulticastDNSMode(ice.MulticastDNSModeDisabled)
	return webrtc.NewAPI(webrtc.WithSettingEngine(se))
}

// IsLoopback reports whether ip is a loopback address: a HubConfig.AllowCandidate that
// keeps a test's server from pairing with any other address.
func IsLoopback(ip netip.Addr) bool { return ip.IsLoopback() }
