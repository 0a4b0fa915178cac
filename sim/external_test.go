package sim

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"tanknet/internal/servertest"
	"tanknet/server"
	"tanknet/server/metrics"
)

// TestRunExternalServerWithMetrics measures a separate server through its metrics endpoint,
// as `tanksim -server ADDR -server-metrics MADDR` does: its CPU use and bytes per tank.
func TestRunExternalServerWithMetrics(t *testing.T) {
	if testing.Short() {
		t.Skip("plays for 2 s over loopback")
	}
	srv := servertest.Start(t, nil)
	ln, err := metrics.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- metrics.Serve(ctx, ln, srv.Stats, nil) }()
	defer func() { cancel(); <-served }()

	cfg := DefaultConfig()
	cfg.Bots, cfg.Duration, cfg.Net, cfg.BotFPS = 2, 2*time.Second, "none", 30
	cfg.Server, cfg.ServerMetrics = srv.Addr, ln.Addr().String()
	res, err := Run(ctx, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := res.Report
	if r.ServerCPUCores == nil || *r.ServerCPUCores < 0 || *r.ServerCPUCores > 64 {
		t.Errorf("server_cpu_cores = %v, want a measured share of cores (notes %q)", r.ServerCPUCores, r.Notes)
	}
	if r.BytesPerTank == nil || r.BytesPerTank.Moving == nil || *r.BytesPerTank.Moving <= 0 {
		t.Errorf("bytes_per_tank = %+v, want moving tanks measured (notes %q)", r.BytesPerTank, r.Notes)
	}
	if r.BotFPS != 30 || r.Arena != "" {
		t.Errorf("bot_fps %d arena %q, want 30 and none (the external server chooses)", r.BotFPS, r.Arena)
	}
}

// TestRunBotsJoinAServerThatSaysItIsBusy: a server that seats one join a tick and lets one
// more wait refuses most of a burst of bots with REJECT_CODE_BUSY ("try again in a second");
// each refused bot joins again after a second or two, so every bot plays and the run
// succeeds.
func TestRunBotsJoinAServerThatSaysItIsBusy(t *testing.T) {
	if testing.Short() {
		t.Skip("plays for a few seconds over loopback")
	}
	srv := servertest.Start(t, func(c *server.Config) { c.MaxJoinsPerTick, c.MaxQueuedJoins = 1, 1 })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cfg := DefaultConfig()
	cfg.Bots, cfg.Duration, cfg.Net, cfg.BotFPS = 8, time.Second, "none", 20
	cfg.Server = srv.Addr
	res, err := Run(ctx, cfg, nil)
	if err != nil {
		t.Fatalf("the run failed: %v", err)
	}
	busy := srv.Stats().RejectsByCode["busy"]
	if len(res.Report.Clients) != cfg.Bots || busy == 0 {
		t.Errorf("%d bots reported and the server refused %d joins as busy; want all %d, after at least one busy refusal (the test's premise)", len(res.Report.Clients), busy, cfg.Bots)
	}
	said := false
	for _, n := range res.Report.Notes {
		said = said || strings.Contains(n, fmt.Sprintf("the server refused %d joins of", busy)) && strings.Contains(n, "measured window")
	}
	if !said {
		t.Errorf("the report's notes %q do not say that %d joins were refused as busy and what that did to the measured window", res.Report.Notes, busy)
	}
	t.Logf("busy refusals: %d; notes: %q", busy, res.Report.Notes)
}
