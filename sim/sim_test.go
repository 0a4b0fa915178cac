package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"tanknet/netcode"
	"tanknet/server"
)

// runFor runs cfg (for at most a minute) and returns what it measured, failing t with the
// progress lines if it fails.
func runFor(t *testing.T, cfg Config) Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var progress bytes.Buffer
	res, err := Run(ctx, cfg, &progress)
	if err != nil {
		t.Fatalf("Run: %v\nprogress: %s", err, progress.String())
	}
	return res
}

// TestRunInProcessLAN is the end-to-end scenario: two bots on the lan profile with contact
// off play an in-process server on 127.0.0.1 and the JSON report measures everything.
func TestRunInProcessLAN(t *testing.T) {
	if testing.Short() {
		t.Skip("plays for 1.5 s over loopback")
	}
	cfg := DefaultConfig()
	cfg.Bots, cfg.Duration, cfg.Net, cfg.Contact = 2, 1500*time.Millisecond, "lan", netcode.ContactOff
	res := runFor(t, cfg)
	var out bytes.Buffer
	if res.Report == nil || res.Matrix != nil {
		t.Fatalf("Run = %+v, want only a report", res)
	}
	if err := res.WriteJSON(&out); err != nil {
		t.Fatalf("WriteJSON: %v", err)
	}
	var rep map[string]any
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("report is not JSON: %v\n%s", err, out.String())
	}
	for _, k := range []string{
		"bots", "duration_s", "reconciliations", "residual_nonzero", "residual_max", "corrections", "snaps",
		"holds", "stale_rejects", "clients", "profile", "interp", "rtt_ms", "remote_error", "holds_ratio",
		"remote_delay_ms", "remote_delay_ratio", "bytes_per_s", "server_tick_ms", "allocs_per_tick",
		"input_to_visible_ms",
	} {
		if _, ok := rep[k]; !ok {
			t.Errorf("report has no %q", k)
		}
	}
	checkFinite(t, "", rep)
	num := func(path ...string) float64 {
		var v any = rep
		for _, p := range path {
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("%s: not an object in %v", strings.Join(path, "."), v)
			}
			v = m[p]
		}
		f, ok := v.(float64)
		if !ok {
			t.Fatalf("%s = %v, want a number", strings.Join(path, "."), v)
		}
		return f
	}
	if got := num("residual_nonzero"); got != 0 {
		t.Errorf("residual_nonzero = %v with contact off, want 0", got)
	}
	if got := num("snaps"); got != 0 {
		t.Errorf("snaps = %v with contact off, want 0", got)
	}
	if got := num("remote_frames"); got < 10 {
		t.Errorf("remote_frames = %v, want the window to hold frames", got)
	}
	if got := num("reconciliations"); got < 1 {
		t.Errorf("reconciliations = %v, want some", got)
	}
	// Generous bounds: a loaded 2-core machine under -race still draws remote tanks within
	// a second of the server, and never ahead of it.
	if d := num("remote_delay_ms", "p50"); d <= 0 || d > 1000 {
		t.Errorf("remote_delay_ms.p50 = %v, want in (0, 1000]", d)
	}
	// Not a timing bound: with the partial step the frame whose Update reads a new input
	// draws with it (the elapsed part of a step is never exactly zero), however slow the
	// frames are, so the median change shows in the same frame.
	if got := num("input_to_visible_ms", "p50"); got != 0 {
		t.Errorf("input_to_visible_ms.p50 = %v, want 0: the partial step shows an input in the frame that reads it", got)
	}
	if up, down := num("bytes_per_s", "up"), num("bytes_per_s", "down"); up <= 0 || down <= 0 {
		t.Errorf("bytes_per_s = %v up, %v down, want traffic both ways", up, down)
	}
	// Counted, not timed: a tick of two players allocates its one shared snapshot buffer
	// and little else (the server benchmarks show 2), so a new allocation per player or
	// per client each tick shows here.
	if a := num("allocs_per_tick"); a < 1 || a > 3 {
		t.Errorf("allocs_per_tick = %v, want 1 to 3 (the tick's snapshot buffer, and no allocation per player)", a)
	}
	if r := num("holds_ratio"); r < 0 || r > 1 {
		t.Errorf("holds_ratio = %v, want in [0, 1]", r)
	}
	// Bots drive most of the time: moving tanks cost something; a snapshot every tick, or
	// nearly (a loaded machine may delay the last few).
	if b := num("bytes_per_tank", "moving"); b < 5 || b > 64 {
		t.Errorf("bytes_per_tank.moving = %v, want a PlayerState's few bytes", b)
	}
	if r := num("snapshots_ratio_min"); r < 0.5 || r > 1.1 {
		t.Errorf("snapshots_ratio_min = %v, want about one snapshot per tick", r)
	}
	if rep["server_cpu_cores"] != nil {
		t.Errorf("server_cpu_cores = %v in-process, want null: the bots share the process", rep["server_cpu_cores"])
	}
	if clients := rep["clients"].([]any); len(clients) != 2 {
		t.Errorf("%d clients, want 2", len(clients))
	} else {
		for _, k := range []string{"player_id", "inputs_sent", "snapshots", "last_ack", "players_seen", "bytes_per_s"} {
			if _, ok := clients[0].(map[string]any)[k]; !ok {
				t.Errorf("clients[0] has no %q", k)
			}
		}
	}
}

// checkFinite fails on any number in v that is not finite; JSON has no NaN, so this
// guards against sentinel values such as -1 or 1e308 slipping through as well.
func checkFinite(t *testing.T, path string, v any) {
	t.Helper()
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			checkFinite(t, path+"."+k, e)
		}
	case []any:
		for _, e := range v {
			checkFinite(t, path+"[]", e)
		}
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1e12 {
			t.Errorf("%s = %v, want a finite, plausible number", path, v)
		}
	}
}

func TestTickAllocs(t *testing.T) {
	cfg := server.DefaultConfig()
	a, err := server.TickAllocs(cfg, 8, 20)
	if err != nil {
		t.Fatal(err)
	}
	if a < 0 || a > 1000 {
		t.Errorf("TickAllocs(8 players) = %v, want a small non-negative number", a)
	}
	if _, err := server.TickAllocs(cfg, 0, 20); err == nil {
		t.Error("TickAllocs(0 players) = nil error, want one")
	}
	if _, err := server.TickAllocs(cfg, 8, 0); err == nil {
		t.Error("TickAllocs(0 ticks) = nil error, want one")
	}
}
