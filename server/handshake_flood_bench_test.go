package server_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/server"
)

// BenchmarkFlood_HonestJoin times an honest join (Dial to Welcome) while four goroutines
// send ConnectRequests as fast as they can from 64 loopback prefixes at the default
// Challenge budget. How long a join takes, and whether it gets through at all, depends on
// how much of the machine the server gets beside the flood: the socket's buffer overflows
// once the server reads slower than the flood sends, and the kernel drops honest and
// flooding datagrams alike. failed/op counts joins that found no answer within 20 s.
//
//	go test ./server -run '^$' -bench Flood_HonestJoin -benchtime 10x
func BenchmarkFlood_HonestJoin(b *testing.B) {
	const prefixes, senders = 64, 4
	addr, _ := startServer(b, func(c *server.Config) { c.MaxPlayers = 256 })
	dst, request, socks := floodSockets(b, addr, prefixes)
	var stop atomic.Bool
	var sent atomic.Int64
	var flood sync.WaitGroup
	for s := range senders {
		flood.Add(1)
		go func() {
			defer flood.Done()
			for i := s; !stop.Load(); i += senders {
				socks[i%prefixes].WriteTo(request, dst)
				sent.Add(1)
			}
		}()
	}
	defer func() { stop.Store(true); flood.Wait() }()
	for sent.Load() < 10000 { // the flood is on
		time.Sleep(time.Millisecond)
	}
	failed := 0
	start := time.Now()
	b.ResetTimer()
	for range b.N {
		sess, err := client.Dial(context.Background(), addr, "honest", nil, 20*time.Second)
		if err != nil {
			failed++
			continue
		}
		sess.Close("done")
	}
	b.StopTimer()
	b.ReportMetric(float64(failed)/float64(b.N), "failed/op")
	b.ReportMetric(float64(sent.Load())/time.Since(start).Seconds(), "flood/s")
}
