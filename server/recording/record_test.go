package recording

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"sync"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/server"
)

var update = flag.Bool("update", false, "record a new testdata/golden.rec from a live match")

const goldenPath = "testdata/golden.rec"

// recordMatch runs a real server on loopback with bots playing it for d and returns its
// recording, with a keyframe every `every` ticks.
func recordMatch(t *testing.T, bots int, d time.Duration, every uint32) []byte {
	t.Helper()
	cfg := server.DefaultConfig()
	cfg.Addr, cfg.Contact = "127.0.0.1:0", true
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	rec := NewRecorder(&buf, cfg, every, cfg.Logger)
	srv.Observe(rec.Tick)
	pc, err := net.ListenPacket("udp", cfg.Addr)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, pc) }()
	botCtx, stopBots := context.WithTimeout(ctx, d)
	var wg sync.WaitGroup
	for i := range bots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client.RunBot(botCtx, client.BotConfig{Addr: pc.LocalAddr().String(), Name: fmt.Sprint("bot", i),
				Seed: uint64(i + 1), Options: client.DefaultOptions(), DialTimeout: 10 * time.Second})
		}()
	}
	wg.Wait()
	stopBots()
	cancel()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// A live match with bots, contact on, recorded and re-simulated: exact at every keyframe.
func TestLiveMatchVerifiesExact(t *testing.T) {
	data := recordMatch(t, 3, 2*time.Second, 5)
	rep, err := Verify(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Exact() {
		t.Fatalf("re-simulation %s", rep)
	}
	if rep.Keyframes < 5 || rep.Ticks < 20 || rep.Moves < 20 {
		t.Fatalf("only %d ticks, %d keyframes and %d inputs compared", rep.Ticks, rep.Keyframes, rep.Moves)
	}
	t.Logf("%d bytes, %d ticks, %d keyframes: exact", len(data), rep.Ticks, rep.Keyframes)
}

// The golden recording re-simulates exactly with the current code; a change to the
// simulation fails here naming the first tick, player and field that differ. Re-record it
// (only after a deliberate change to the simulation) with
//
//	go test ./server/recording -run TestGolden -update
func TestGolden(t *testing.T) {
	if *update {
		data := recordMatch(t, 4, 4*time.Second, 10)
		if err := os.WriteFile(goldenPath, data, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s: %d bytes", goldenPath, len(data))
	}
	f, err := os.Open(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := Verify(f)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Exact() {
		t.Fatalf("the simulation no longer reproduces %s: it %s", goldenPath, rep)
	}
	if rep.Keyframes < 5 || rep.Moves < 100 {
		t.Fatalf("only %d keyframes and %d inputs compared", rep.Keyframes, rep.Moves)
	}
}
