package sim

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"tanknet/netcode"
)

// TestRunGroupsReportEachGroupApart: two bots on lan and one whose up-link is mobile-3g's
// play one server; the report has one entry per group, each with its own bots, link and
// round trip. The slow group's RTT cannot be below the 110 ms its up-link alone adds (120
// ms ± 10 ms), whatever the machine's load.
func TestRunGroupsReportEachGroupApart(t *testing.T) {
	if testing.Short() {
		t.Skip("plays for 2 s over loopback")
	}
	cfg := DefaultConfig()
	cfg.Bots, cfg.Duration, cfg.Contact = 3, 2*time.Second, netcode.ContactOff
	cfg.Groups = []Group{{Bots: 2, Net: "lan"}, {Bots: 1, Net: "up=mobile-3g,down=lan"}}
	res := runFor(t, cfg)
	r := res.Report
	if r == nil || len(r.Groups) != 2 {
		t.Fatalf("report = %+v, want one with two groups", r)
	}
	if len(r.Clients) != 3 || r.Link != "per group" {
		t.Errorf("whole run: %d clients, link %q; want all 3 bots and %q", len(r.Clients), r.Link, "per group")
	}
	lan, slow := r.Groups[0], r.Groups[1]
	if lan.Bots != 2 || lan.Profile != "lan" || slow.Bots != 1 || slow.Profile != "up=mobile-3g,down=lan" {
		t.Errorf("groups = (%d on %q), (%d on %q); want (2 on lan), (1 on up=mobile-3g,down=lan)", lan.Bots, lan.Profile, slow.Bots, slow.Profile)
	}
	if !strings.Contains(slow.Link, "out 120ms±10ms loss=5%") || !strings.Contains(slow.Link, "in 1ms±1ms") {
		t.Errorf("slow group's link = %q, want mobile-3g going out (up) and lan coming in (down)", slow.Link)
	}
	if slow.RTT == nil || slow.RTT.P50 < 110 {
		t.Errorf("slow group's RTT = %+v, want a median of at least the 110 ms its up-link adds", slow.RTT)
	}
	// The lan group's round trip is not compared with the slow one's: on a busy machine the
	// bots' frames come late, and a lan bot's Pong can wait longer for its frame than the
	// up-link delays the slow bot's Ping (seen: lan 282 ms, slow 159 ms beside three
	// CPU-burning processes). Only the delay the slow link adds is a floor that load cannot
	// lower.
	if lan.RTT == nil {
		t.Errorf("lan group's RTT missing: %+v", lan)
	}
	if lan.ResidualNonZero != 0 || slow.ResidualNonZero != 0 {
		t.Errorf("residuals %d and %d with contact off, want 0 in both groups", lan.ResidualNonZero, slow.ResidualNonZero)
	}
	// The input figures are each group's own players': the server's buffer waits for each
	// player's inputs apart, so the groups' waits are not one shared figure.
	if lan.InputWait == nil || slow.InputWait == nil || *lan.InputWait == *slow.InputWait {
		t.Errorf("input waits: lan %+v, slow %+v; want each group's own", lan.InputWait, slow.InputWait)
	}
	if lan.InputStarvedRatio == nil || slow.InputStarvedRatio == nil || r.InputStarvedRatio == nil ||
		*r.InputStarvedRatio < min(*lan.InputStarvedRatio, *slow.InputStarvedRatio) ||
		*r.InputStarvedRatio > max(*lan.InputStarvedRatio, *slow.InputStarvedRatio) {
		t.Errorf("starved: whole run %v, groups %v and %v; want the whole run's between its groups'", r.InputStarvedRatio, lan.InputStarvedRatio, slow.InputStarvedRatio)
	}
	var text bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text.String(), "one-way 0.0 ms") || r.RemoteDelayRatio != nil {
		t.Errorf("the whole run's delay is set against one one-way latency (ratio %v), but each group has its own:\n%s", r.RemoteDelayRatio, text.String())
	}
	if !strings.Contains(text.String(), "up=mobile-3g,down=lan  1") {
		t.Errorf("text report lacks the group table row:\n%s", text.String())
	}
}
