package main

import (
	"context"
	"errors"
	"io"
	"net/http"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"tanknet/client"
)

// TestAdminDrain_PostOnTheMetricsPort: POST /drain on the -metrics port starts the drain a
// SIGTERM starts: the players in play go on, a newcomer gets the shutting-down Reject, and
// the SIGTERM that follows (an orchestrator stopping the process) does not cut it short.
func TestAdminDrain_PostOnTheMetricsPort(t *testing.T) {
	bin := buildServer(t)
	addr := freeUDPAddr(t)
	cmd, logs := startServer(t, bin, "-addr", addr, "-metrics", "127.0.0.1:0", "-drain", "20s")
	logs.waitFor(t, "serving metrics")
	m := regexp.MustCompile(`url=(http://[0-9.:]+)/metrics`).FindStringSubmatch(logs.String())
	if m == nil {
		t.Fatalf("no metrics url in the log:\n%s", logs.String())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ps := playBots(t, ctx, addr, 2)

	if resp, err := http.Get(m[1] + "/drain"); err != nil || resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET /drain: %v %v, want 405 (only POST drains)", resp.Status, err)
	}
	resp, err := http.Post(m[1]+"/drain", "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted || !strings.Contains(string(body), "draining") {
		t.Fatalf("POST /drain: %s %q, want 202 and what the drain does", resp.Status, body)
	}
	logs.waitFor(t, "draining: new players are refused")
	_, err = client.Dial(ctx, addr, "late", nil, 5*time.Second)
	var rej *client.RejectedError
	if !errors.As(err, &rej) || !strings.Contains(rej.Reason, "shutting down") {
		t.Errorf("a join after POST /drain: %v, want the shutting-down Reject", err)
	}
	termAt := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	logs.waitFor(t, "already draining")
	// Both players still hear the game after the SIGTERM (the drain lasts 20 s).
	for deadline := time.Now().Add(10 * time.Second); ps.heardAfter(0, termAt) <= 0 || ps.heardAfter(1, termAt) <= 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) || strings.Contains(logs.String(), "server stopped") {
			t.Fatalf("after POST /drain and one SIGTERM the players heard nothing more; log:\n%s", logs.String())
		}
	}
	cancel()
	ps.wait()
}
