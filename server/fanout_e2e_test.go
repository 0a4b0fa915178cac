package server_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/netcode"
	"tanknet/server"
)

// TestEndToEnd_ViewArenaWorkers plays a real server on the large arena, where interest
// management is on and each client's snapshot is built by the fan-out workers after the
// tick, with four bots over KCP for two seconds: every bot plays on, hears the server tick
// after tick, and replays exactly (contact off). Under -race it checks the workers against
// the live sessions and the world goroutine.
func TestEndToEnd_ViewArenaWorkers(t *testing.T) {
	addr, _ := startServer(t, func(c *server.Config) { c.Arena = netcode.LargeArena() })
	const bots = 4
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	reports := playBots(t, ctx, bots, func(i int) client.BotConfig {
		return client.BotConfig{
			Addr: addr, Name: fmt.Sprintf("viewer-%d", i), Seed: uint64(i), Duration: 2 * time.Second,
			Options: client.DefaultOptions(),
		}
	})
	for i, r := range reports {
		if r.Snapshots < 10 { // 40 ticks in 2 s; a loaded machine may lose some, not most
			t.Errorf("bot %d got %d snapshots in 2 s, want most of 40", i, r.Snapshots)
		}
		if r.Reconciliations < 10 {
			t.Errorf("bot %d reconciled %d times in 2 s, want many", i, r.Reconciliations)
		}
		if r.ResidualNonZero != 0 || r.ResidualMax != 0 {
			t.Errorf("bot %d: %d reconciliations with a residual (max %g), want exactly 0 with contact off", i, r.ResidualNonZero, r.ResidualMax)
		}
	}
}
