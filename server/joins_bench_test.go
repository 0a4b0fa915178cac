package server_test

import (
	"io"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"tanknet/server"
)

// BenchmarkJoins_BurstOf256WhileSilentFlood times what TestJoins_BurstWhileSilentFloodContained
// leaves out, a full server's worth of joins: beside 100 silent sessions, 256 clients join
// within a second and a half (one every 6 ms), each op one such burst on a fresh server.
// seated/op is the share seated (1 when every Hello found its seat); join-p50-ms and
// join-p99-ms how long a client waited from dialling to its roster; roster/op the largest
// roster a joiner received in one message (256 when a full server's roster reaches a new
// client whole). Every seated client is sent every tank every tick, so on a small machine,
// or under -race, the joins queue behind the snapshots: a capacity, not a fault.
//
//	go test ./server -run '^$' -bench Joins_BurstOf256 -benchtime 1x
func BenchmarkJoins_BurstOf256WhileSilentFlood(b *testing.B) {
	const players, flood, cap = 256, 100, 32
	var seated, largest int
	var took []time.Duration
	for range b.N {
		b.StopTimer()
		addr, _ := startServer(b, func(c *server.Config) {
			c.MaxPlayers, c.MaxHandshakes = players, cap
			c.IdleTimeout, c.AckTimeout = 60*time.Second, 60*time.Second
			c.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
		})
		closeFlood := silentFlood(b, addr, flood)
		stop := make(chan struct{})
		var drain sync.WaitGroup
		b.StartTimer()
		joiners := burst(addr, players, stop, &drain)
		b.StopTimer()
		close(stop)
		drain.Wait()
		closeFlood()
		for _, j := range joiners {
			took = append(took, j.took)
			if j.err == nil {
				seated++
				largest = max(largest, j.roster)
			}
		}
	}
	slices.Sort(took)
	b.ReportMetric(float64(seated)/float64(players*b.N), "seated/op")
	b.ReportMetric(float64(largest), "roster/op")
	b.ReportMetric(float64(took[len(took)/2].Milliseconds()), "join-p50-ms")
	b.ReportMetric(float64(took[len(took)*99/100].Milliseconds()), "join-p99-ms")
}
