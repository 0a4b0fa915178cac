package main

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"tanknet/client"
)

// workerReport is a page's tanknet-report line, in the fields the worker test reads.
type workerReport struct {
	client.Report
	Transport    string              `json:"transport"`
	Joined       bool                `json:"joined"`
	ConnectMs    float64             `json:"connect_ms"`
	PhasesMs     map[string]float64  `json:"phases_ms"`
	Worker       bool                `json:"worker"`
	InputWait    *client.WaitSummary `json:"input_wait"`
	DrawnMatches *bool               `json:"drawn_matches"`
}

// TestBrowser_WorkerPageDrawsItsWorkersGame opens the page with its game in a Web Worker
// (the default) beside a native bot: the worker joins over the data channel the page handed
// it, its report (relayed to the page's console) says so, with every phase of connecting in
// order, a round trip, snapshots, the server's input waits and no residual the server did
// not cause, and the Game the page drew from the worker's frames reports, at the report's
// frame, exactly what the worker's Game did. Then the same page with worker=0, at 480×320,
// plays on its own thread and reports as before, with its input waits too.
func TestBrowser_WorkerPageDrawsItsWorkersGame(t *testing.T) {
	browserTest(t, workerPage)
}

func workerPage(t *testing.T, chromium, webDir string) {
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	var explained atomic.Uint64
	page, addr, logs := webGameWith(t, ctx, webDir, countExplained(&explained))
	stopBot := nativeBot(t, ctx, addr)
	b := startChromium(t, chromium, "1280,720")

	// read opens the page with query and returns its report. small draws it at 480×320
	// rather than the window's size: a page whose game waits on its frames (worker=0) then
	// keeps a few of them a second in software on a machine busy with other work.
	read := func(query string, small bool) workerReport {
		t.Helper()
		session, err := b.OpenPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Call(ctx, session, "Page.close", nil, nil)
		if small {
			metrics := map[string]any{"width": 480, "height": 320, "deviceScaleFactor": 1, "mobile": false}
			if err := b.Call(ctx, session, "Emulation.setDeviceMetricsOverride", metrics, nil); err != nil {
				t.Fatal(err)
			}
		}
		navigate(t, ctx, b, session, page+query)
		line, console := awaitConsole(t, ctx, b, "tanknet-report ")
		t.Logf("%s: %s", query, line)
		var r workerReport
		if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "tanknet-report ")), &r); err != nil {
			t.Fatalf("the report does not parse: %v\n%s", err, console)
		}
		return r
	}

	r := read("?name=inworker&bot=1&report=8", false)
	allowed := int(explained.Load())
	if step := phasesInOrder(r.PhasesMs); step != "" || !r.Joined || r.PhasesMs["welcome"] != r.ConnectMs {
		t.Errorf("the worker page's phases %v (joined %v, connect_ms %v): %q missing or out of order", r.PhasesMs, r.Joined, r.ConnectMs, step)
	}
	if !r.Worker || r.Transport != "webrtc" || r.Name != "inworker" || r.RTTMillis <= 0 || r.Snapshots == 0 || r.LastAck == 0 ||
		r.PlayersSeen < 2 || r.ResidualNonZero > allowed {
		t.Errorf("the worker page's report: worker %v, transport %q, name %q, rtt_ms %v, snapshots %d, last_ack %d, players_seen %d, residual_nonzero %d (the server separated or refused %d); want its game in the worker, over webrtc, playing beside the bot with no residual the server did not cause",
			r.Worker, r.Transport, r.Name, r.RTTMillis, r.Snapshots, r.LastAck, r.PlayersSeen, r.ResidualNonZero, allowed)
	}
	if r.InputWait == nil || r.InputWait.Samples == 0 {
		t.Errorf("the worker page's report has no input waits: %+v", r.InputWait)
	}
	if r.DrawnMatches == nil || !*r.DrawnMatches {
		t.Errorf("the Game the page drew, at the report's frame: matches the worker's %v; want true", r.DrawnMatches)
	}

	old := read("?name=onpage&worker=0&bot=1&report=5", true)
	if old.Worker || !old.Joined || old.Snapshots == 0 || old.InputWait == nil || old.InputWait.Samples == 0 || old.DrawnMatches != nil {
		t.Errorf("the worker=0 page's report: worker %v, joined %v, snapshots %d, input wait %+v, drawn_matches %v; want its game on the page's thread, playing, with input waits",
			old.Worker, old.Joined, old.Snapshots, old.InputWait, old.DrawnMatches)
	}
	if nr := stopBot(); nr.PlayersSeen < 3 {
		t.Errorf("the native bot saw %d players; want itself and both pages", nr.PlayersSeen)
	}
	reachedOverLoopback(t, logs, 2) // the worker's page and the worker=0 one
}
