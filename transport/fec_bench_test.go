package transport

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"tanknet/linksim"
	tankv1 "tanknet/proto/tank/v1"
)

// BenchmarkStreamFEC measures what the FEC shard counts do to the reliable stream on a
// lossy link: one small message every 20 ms (an input's or a snapshot's cadence) from a
// client behind the wifi-bad conditioner, timed from Send to the server's Recv. Each
// iteration is one message, so run it with a fixed count to get stable quantiles:
//
//	go test -run '^$' -bench StreamFEC -benchtime 1000x ./transport
//
// It reports the delivery delay's p50, p99 and max in ms and the UDP packets the client
// sent per message (data, parity and acknowledgements). docs/PROTOCOL.md ("FEC") has the
// numbers and the choice they led to.
func BenchmarkStreamFEC(b *testing.B) {
	cond, err := linksim.Preset("wifi-bad")
	if err != nil {
		b.Fatal(err)
	}
	for _, fec := range []fecShards{{0, 0}, {1, 1}, {2, 1}, {3, 1}, {4, 2}, {10, 3}} {
		b.Run(fmt.Sprintf("data=%d,parity=%d", fec.data, fec.parity), func(b *testing.B) {
			p := newConnPair(b, fec, &cond)
			cc := p.cond
			before := cc.Stats().Outbound.Offered
			delays := make(chan time.Duration, b.N)
			go func() {
				var m tankv1.ClientMessage
				for range b.N {
					if err := p.server.Recv(&m, 10*time.Second); err != nil {
						close(delays)
						return
					}
					sent := time.UnixMicro(int64(m.GetPing().GetClientTimeUs()))
					delays <- time.Since(sent)
				}
				close(delays)
			}()
			b.ResetTimer()
			for range b.N {
				ping := &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Ping{Ping: &tankv1.Ping{ClientTimeUs: uint64(time.Now().UnixMicro())}}}
				if err := p.client.Send(ping); err != nil {
					b.Fatal(err)
				}
				time.Sleep(20 * time.Millisecond)
			}
			var got []float64
			for d := range delays {
				got = append(got, float64(d)/float64(time.Millisecond))
			}
			b.StopTimer()
			if len(got) < b.N {
				b.Fatalf("%d of %d messages arrived", len(got), b.N)
			}
			slices.Sort(got)
			b.ReportMetric(got[len(got)/2], "p50-ms")
			b.ReportMetric(got[len(got)*99/100], "p99-ms")
			b.ReportMetric(got[len(got)-1], "max-ms")
			b.ReportMetric(float64(cc.Stats().Outbound.Offered-before)/float64(b.N), "pkts/msg")
			b.ReportMetric(0, "ns/op")
		})
	}
}
