package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tanknet/server/recording"
)

// -record writes a recording tankreplay verifies as exact; a path that cannot be created
// stops tankserver before it serves, naming the flag.
func TestRun_Record(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Server.Addr = "127.0.0.1:0"
	cfg.Server.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg.Record = filepath.Join(t.TempDir(), "no-such-dir", "match.rec")
	if err := run(context.Background(), cfg, nil); err == nil || !strings.Contains(err.Error(), "-record") {
		t.Fatalf("run with an unwritable -record = %v, want a -record error", err)
	}
	cfg.Record = filepath.Join(t.TempDir(), "match.rec")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, cfg, nil) }()
	var first int64 // the size once the header and a tick are written
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		fi, err := os.Stat(cfg.Record)
		if err == nil && first == 0 {
			first = fi.Size()
		}
		if err == nil && first > 0 && fi.Size() > first+60 { // several more ticks (16 bytes each with no one in)
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no recording grew within 20 s")
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("run = %v", err)
	}
	f, err := os.Open(cfg.Record)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := recording.Verify(f)
	if err != nil || !rep.Exact() || rep.Ticks < 5 {
		t.Fatalf("verify: %v, %v after %d ticks", rep, err, rep.Ticks)
	}
}
