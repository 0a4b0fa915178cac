package discovery

import (
	"context"
	"net"
	"slices"
	"testing"
	"time"
)

// BenchmarkDiscover_TenServers runs rounds that find ten servers on this host's loopback
// and reports how long their answers took: the median and the slowest server's, in
// milliseconds from the round's first request, over every round. A round lasts its Wait
// (100 ms) whatever the answers, so ns/op is that wait; the answer figures are the ones
// to read. Over a LAN, add its round trip.
//
//	go test ./discovery -run '^$' -bench TenServers -benchtime 20x
func BenchmarkDiscover_TenServers(b *testing.B) {
	ids := make([]uint64, 10)
	for i := range ids {
		ids[i] = uint64(0xc0 + i)
	}
	// One asker runs far more rounds than a lobby does: lift the rate limits, which are
	// not what is measured.
	rcfg := DefaultResponderConfig()
	rcfg.Limits = Limits{Burst: 1 << 20, PerSecond: 1 << 20, Sources: 16, TotalPerSecond: 1 << 20}
	rs, _ := servers(b, func() (net.PacketConn, error) { return net.ListenPacket("udp4", "127.0.0.1:0") }, sample(), rcfg, ids...)
	cfg := BrowseConfig{Targets: loopback(), Refresh: time.Second, Wait: 100 * time.Millisecond, RequestSize: MaxDatagram}
	for _, r := range rs {
		cfg.Ports = append(cfg.Ports, portOf(r))
	}
	var answers []float64
	b.ResetTimer()
	for range b.N {
		list, err := Discover(context.Background(), cfg)
		if err != nil {
			b.Fatal(err)
		}
		if len(list) != len(ids) {
			b.Fatalf("found %d servers, want %d", len(list), len(ids))
		}
		for _, s := range list {
			answers = append(answers, s.AnswerMS)
		}
	}
	slices.Sort(answers)
	b.ReportMetric(answers[len(answers)/2], "answer_p50_ms")
	b.ReportMetric(answers[len(answers)-1], "answer_max_ms")
}
