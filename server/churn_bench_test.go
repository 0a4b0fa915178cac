package server_test

import (
	"context"
	"testing"
	"time"

	"tanknet/server"
)

// BenchmarkChurn_JoinsAndLeaves measures the capacity TestChurn_JoinsAndLeavesDropNoHonestPlayer
// leaves out: 48 churners aiming at 500 joins and leaves a second, each op one churner
// seated. seated/s is how many the server seats a second; refused/op how many Hellos it
// refused (REJECT_CODE_BUSY once the join queue is full) for each it seated. A machine
// that gives the server less CPU seats fewer and refuses more: that is a capacity, not a
// fault.
//
//	go test ./server -run '^$' -bench Churn_JoinsAndLeaves -benchtime 500x
func BenchmarkChurn_JoinsAndLeaves(b *testing.B) {
	addr, srv := startServer(b, func(c *server.Config) {
		c.MaxPlayers = 64
		c.Logger = quietLogger()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	b.ResetTimer()
	start := time.Now()
	churn(ctx, addr, 48, 500, func() bool { return srv.Stats().Joins >= uint64(b.N) })
	took := time.Since(start)
	b.StopTimer()
	st := srv.Stats()
	b.ReportMetric(float64(st.Joins)/took.Seconds(), "seated/s")
	b.ReportMetric(float64(st.Rejects)/float64(max(st.Joins, 1)), "refused/op")
}
