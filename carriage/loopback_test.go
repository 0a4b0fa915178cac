//go:build !js

package carriage

import (
	"context"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// TestLoopback_CandidatesAreLoopbackOnly: the tests' peers (LoopbackAPI) and test hub
// (startHub) offer and answer candidates on loopback only, so no test reaches beyond the
// machine whatever interfaces it has.
func TestLoopback_CandidatesAreLoopbackOnly(t *testing.T) {
	th := startHub(t, DefaultHubConfig())
	pc := gatheredOffer(t, channelInit())
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	answer, err := postOffer(ctx, th.url, sessionDescription{Type: "offer", SDP: pc.LocalDescription().SDP})
	if err != nil {
		t.Fatal(err)
	}
	for side, sdp := range map[string]string{"offer": pc.LocalDescription().SDP, "answer": answer.SDP} {
		n := 0
		for _, line := range strings.Split(sdp, "\n") {
			f := strings.Fields(strings.TrimSpace(line))
			if len(f) < 5 || !strings.HasPrefix(f[0], "a=candidate:") {
				continue
			}
			n++
			if ip, err := netip.ParseAddr(f[4]); err != nil || !ip.IsLoopback() {
				t.Errorf("%s candidate %q is not on loopback", side, line)
			}
		}
		if n == 0 {
			t.Errorf("the %s has no candidate: nothing was checked", side)
		}
	}
}
