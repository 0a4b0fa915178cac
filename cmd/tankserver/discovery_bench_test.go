package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/discovery"
	"tanknet/server"
)

// BenchmarkDiscoveryFlood_Tick measures what a flood of discovery requests from 64
// loopback sources costs the game: the tick p99 of a server with 8 bots for 3 s without
// the flood and 3 s beside it, and how many requests the flood had answered and refused.
// It runs once whatever b.N; tick figures depend on the machine and are not asserted.
//
//	go test ./cmd/tankserver -run '^$' -bench DiscoveryFlood -benchtime 1x
func BenchmarkDiscoveryFlood_Tick(b *testing.B) {
	cfg := DefaultConfig()
	cfg.Server.Addr = "127.0.0.1:0"
	cfg.Discovery = "127.0.0.1:0"
	cfg.Server.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := server.New(cfg.Server)
	if err != nil {
		b.Fatal(err)
	}
	pc, err := net.ListenPacket("udp", cfg.Server.Addr)
	if err != nil {
		b.Fatal(err)
	}
	stopDiscovery, err := startDiscovery(cfg, srv, pc.LocalAddr().(*net.UDPAddr).Port, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer stopDiscovery()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	wg.Add(1)
	go func() { defer wg.Done(); srv.Serve(ctx, pc) }()
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client.RunBot(ctx, client.BotConfig{Addr: pc.LocalAddr().String(), Name: fmt.Sprint("b", i), Seed: uint64(i + 1), Options: client.DefaultOptions(), DialTimeout: 20 * time.Second})
		}()
	}
	for deadline := time.Now().Add(30 * time.Second); srv.Players() < 8 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
	}
	quiet := tickP99(srv, 3*time.Second)
	port := findServer(b, serverName(cfg.Name), func(discovery.Server) bool { return true }).Discovery
	var sent atomic.Int64
	flooding, stopFlood := context.WithCancel(ctx)
	for k := range 64 {
		src, err := net.ListenPacket("udp4", fmt.Sprintf("127.0.%d.1:0", k+1))
		if err != nil {
			b.Skipf("cannot bind 127.0.%d.1: %v", k+1, err)
		}
		defer src.Close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := discovery.AppendRequest(nil, 1, discovery.MaxDatagram)
			to := net.UDPAddrFromAddrPort(port)
			for flooding.Err() == nil {
				src.WriteTo(req, to)
				sent.Add(1)
			}
		}()
	}
	flood := tickP99(srv, 3*time.Second)
	stopFlood()
	b.ReportMetric(float64(quiet.Microseconds())/1000, "quiet_tick_p99_ms")
	b.ReportMetric(float64(flood.Microseconds())/1000, "flood_tick_p99_ms")
	b.ReportMetric(float64(sent.Load())/3, "flood_requests/s")
}

// tickP99 returns the upper bound of the tick-duration bucket that holds the 99th
// percentile of the ticks srv runs in the next d.
func tickP99(srv *server.Server, d time.Duration) time.Duration {
	before := srv.Stats().TickDuration
	time.Sleep(d)
	after := srv.Stats().TickDuration
	total := after.Count - before.Count
	var seen uint64
	for i, ub := range after.UpperBounds {
		seen += after.Counts[i] - before.Counts[i]
		if seen*100 >= total*99 {
			return ub
		}
	}
	return after.UpperBounds[len(after.UpperBounds)-1]
}
