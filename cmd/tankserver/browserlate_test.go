package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"tanknet/internal/cdp"
)

// TestBrowser_AWorkerSlowerThanItsChannelStillJoins holds the page's worker program back (its
// wasm's request waits) until the server has dropped the page's first channel for saying
// nothing, as on a phone slow to compile two programs: the worker finds that channel closed,
// asks the page for a fresh one, and joins on it. The page never says UDP is blocked.
func TestBrowser_AWorkerSlowerThanItsChannelStillJoins(t *testing.T) {
	browserTest(t, lateWorker)
}

func lateWorker(t *testing.T, chromium, webDir string) {
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	page, _, logs := webGameWith(t, ctx, webDir, func(c *Config) { c.Web.Hub.JoinTimeout = 3 * time.Second })
	b := startChromium(t, chromium, "480,320")
	session, err := b.OpenPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	held := map[string]any{"patterns": []map[string]any{{"urlPattern": "*tankworker.wasm", "requestStage": "Request"}}}
	if err := b.Call(ctx, "", "Fetch.enable", held, nil); err != nil {
		t.Fatal(err)
	}
	navigate(t, ctx, b, session, page+"?name=late&bot=1&report=3")
	paused := awaitEvent(t, ctx, b, "Fetch.requestPaused")
	logs.waitFor(t, "never completed the connect handshake")
	var req struct {
		RequestID string `json:"requestId"`
	}
	if err := json.Unmarshal(paused.Params, &req); err != nil {
		t.Fatal(err)
	}
	if err := b.Call(ctx, paused.SessionID, "Fetch.continueRequest", map[string]any{"requestId": req.RequestID}, nil); err != nil {
		t.Fatal(err)
	}

	line, console := awaitConsole(t, ctx, b, "tanknet-report ")
	var r workerReport
	if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "tanknet-report ")), &r); err != nil {
		t.Fatalf("the report does not parse: %v\n%s", err, console)
	}
	if !r.Joined || !r.Worker || r.Transport != "webrtc" || r.Snapshots == 0 {
		t.Errorf("the late worker's page: joined %v, worker %v, transport %q, snapshots %d; want it playing over webrtc from its worker\n%s",
			r.Joined, r.Worker, r.Transport, r.Snapshots, console)
	}
	if strings.Contains(console, "UDP") {
		t.Errorf("the page spoke of UDP, though its path worked:\n%s", console)
	}
	if n := strings.Count(logs.String(), "browser joined over webrtc"); n != 1 {
		t.Errorf("the server saw %d browsers join; want the one, on its second channel", n)
	}
}

// awaitEvent returns the browser's next event named method, failing t when ctx ends first.
func awaitEvent(t *testing.T, ctx context.Context, b *cdp.Browser, method string) cdp.Event {
	t.Helper()
	for {
		select {
		case e := <-b.Events():
			if e.Method == method {
				return e
			}
		case <-ctx.Done():
			t.Fatalf("no %s event", method)
		}
	}
}
