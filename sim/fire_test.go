package sim

import (
	"testing"
	"time"

	"tanknet/netcode"
)

// TestRunFireAgrees is the lag compensation scenario end to end: three gunner bots on the
// lan profile shoot at each other through real KCP sockets. Every shot the server accepted
// must be judged exactly as its shooter saw it (agreement 1), and the report must count
// what happened. How many shots a loaded machine manages is not asserted beyond some: the
// counts must be consistent.
func TestRunFireAgrees(t *testing.T) {
	if testing.Short() {
		t.Skip("plays for 3 s over loopback")
	}
	cfg := DefaultConfig()
	cfg.Bots, cfg.Duration, cfg.Net, cfg.Contact, cfg.Fire = 3, 3*time.Second, "lan", netcode.ContactOff, true
	r := runFor(t, cfg).Report
	if !r.Fire || !r.LagComp {
		t.Errorf("report fire %v lagcomp %v, want both true", r.Fire, r.LagComp)
	}
	if r.Hits > r.Shots || r.ClientHits > r.Shots {
		t.Errorf("hits %d and client hits %d cannot exceed shots %d", r.Hits, r.ClientHits, r.Shots)
	}
	if r.Shots == 0 || r.HitAgreement == nil {
		t.Fatalf("%d shots judged, agreement %v: three gunners for 3 s must fire and be judged", r.Shots, r.HitAgreement)
	}
	if *r.HitAgreement != 1 {
		t.Errorf("hit_agreement = %v over %d shots, want exactly 1: the server judged what a shooter drew differently", *r.HitAgreement, r.Shots)
	}
	if r.Hits > 0 && r.RewindMs == nil {
		t.Error("lag-compensated hits without a rewind_ms summary")
	}
	t.Logf("shots %d, client hits %d, hits %d, agreement %s, refused %v, kills %d", r.Shots, r.ClientHits, r.Hits, opt("%.3f", r.HitAgreement), r.ShotsRefused, r.Kills)
}
