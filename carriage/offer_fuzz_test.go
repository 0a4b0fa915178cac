//go:build !js

package carriage

import (
	"net/netip"
	"strings"
	"testing"
)

// FuzzOffer feeds parseOffer what a browser (or anyone) may post: it never panics, accepts
// only offers with one data channel section, and keeps no candidate the filter refuses.
func FuzzOffer(f *testing.F) {
	// Seeds: a minimal data channel offer with a loopback and a LAN candidate, an answer,
	// broken JSON, SDP that does not parse, and an offer of audio only.
	dc := "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\nc=IN IP4 0.0.0.0\r\n" +
		"a=candidate:1 1 udp 2130706431 127.0.0.1 5000 typ host\r\na=candidate:2 1 udp 2130706431 192.168.1.5 5001 typ host\r\n"
	f.Add(`{"type":"offer","sdp":"` + strings.ReplaceAll(strings.ReplaceAll(dc, "\r", `\r`), "\n", `\n`) + `"}`)
	f.Add(`{"type":"answer","sdp":"v=0"}`)
	f.Add(`{"type":"offer"`)
	f.Add(`{"type":"offer","sdp":"v=banana"}`)
	f.Add(`{"type":"offer","sdp":"v=0\r\nm=audio 9 RTP/AVP 0\r\n"}`)
	f.Fuzz(func(t *testing.T, body string) {
		offer, err := parseOffer([]byte(body), IsLoopback)
		if err != nil {
			return
		}
		parsed, perr := offer.Unmarshal()
		if perr != nil {
			t.Fatalf("accepted an offer whose kept SDP does not parse: %v", perr)
		}
		apps := 0
		for _, m := range parsed.MediaDescriptions {
			if m.MediaName.Media == "application" {
				apps++
			}
		}
		if apps != 1 {
			t.Fatalf("accepted an offer with %d application sections", apps)
		}
		for _, line := range strings.Split(offer.SDP, "\n") {
			if f := strings.Fields(line); len(f) > 0 && strings.HasPrefix(f[0], "a=candidate:") {
				if len(f) < 6 {
					t.Fatalf("kept the short candidate %q", line)
				}
				if ip, err := netip.ParseAddr(f[4]); err != nil || !ip.IsLoopback() {
					t.Fatalf("kept the candidate %q", line)
				}
			}
		}
	})
}
