package tabworker_test

import (
	"bytes"
	"context"
	"net"
	"reflect"
	"sync"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/client/tabworker"
	"tanknet/internal/servertest"
	"tanknet/netcode"
)

// TestWorker_ThePageDrawsTheWorkersGame plays a worker against a real server while a
// "page" sends it controls every 16 ms, and follows the frames it hands over with a Mirror,
// as the page does. The Mirror's Game moves as driven, and replayed to the frame the worker
// reported at, it reports exactly what the worker's Game did.
func TestWorker_ThePageDrawsTheWorkersGame(t *testing.T) {
	srv := servertest.Start(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	udp, err := net.ListenUDP("udp", nil)
	if err != nil {
		t.Fatal(err)
	}
	spec := tabworker.Spec{Server: srv.Addr, Name: "page", DialTimeout: 5 * time.Second, Game: client.DefaultOptions(),
		ReportAfter: 1500 * time.Millisecond, Network: "network test"}
	w, err := tabworker.Join(ctx, udp, spec)
	if err != nil {
		t.Fatal(err)
	}
	mirror := client.NewMirror(time.Unix(9000, 0))
	mirror.Keep()
	var mu sync.Mutex
	handed, reportedAt := 0, -1
	var report tabworker.Report
	page := tabworker.Page{
		Frames: func(b []byte, frames int) {
			mirror.Add(b, frames)
			mu.Lock()
			handed += frames
			mu.Unlock()
		},
		Report: func(r tabworker.Report) {
			mu.Lock()
			report, reportedAt = r, r.Frames
			if r.Frames != handed+1 {
				t.Errorf("the report says its frame is %d, %d were handed over before it: want the next", r.Frames, handed)
			}
			mu.Unlock()
		},
	}
	playCtx, quit := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- w.Run(playCtx, page) }()
	drive := tabworker.Controls{Input: netcode.Input{Turn: 0.4, Throttle: 1}, LagComp: true}
	for end := time.Now().Add(2500 * time.Millisecond); time.Now().Before(end); time.Sleep(16 * time.Millisecond) {
		w.SetControls(drive)
		if _, err := mirror.Step(nil); err != nil {
			t.Fatalf("the mirror: %v", err)
		}
	}
	quit()
	if err := <-done; err != nil {
		t.Fatalf("the worker ended with %v after a quit", err)
	}
	mirror.End(nil)
	if _, err := mirror.Step(nil); err == nil {
		t.Fatal("the mirror did not end")
	}
	g := mirror.Game()
	if g.Local() == nil || g.Stats().InputsSent < 20 || g.Input() != drive.Input || g.Network() != "network test" {
		t.Fatalf("the mirrored Game: local %v, %d inputs sent, input %+v, network %q; want our tank driven as the page said",
			g.Local() != nil, g.Stats().InputsSent, g.Input(), g.Network())
	}
	if reportedAt < 0 {
		t.Fatal("the worker never reported")
	}
	p, err := client.OpenReplay(bytes.NewReader(mirror.Recording()), time.Unix(5000, 0))
	if err != nil {
		t.Fatal(err)
	}
	for range reportedAt {
		if _, err := p.Step(); err != nil {
			t.Fatal(err)
		}
	}
	got := p.Game().Report()
	want := report.Report
	want.BadDatagrams = 0 // the link's count, which a recording does not keep
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("replayed to the worker's report, the page's Game reports\n%+v\nthe worker's\n%+v", got, want)
	}
	if report.InputWait.Samples == 0 {
		t.Errorf("the report has no input waits: %+v", report.InputWait)
	}
}
