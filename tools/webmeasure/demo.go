package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"
)

// runDemo serves bin/web over plain HTTP on loopback, opens ?demo=1 in a headless Chromium
// page of the native demo's default size for seconds, and prints the page's frame rate and
// its players' lost snapshots as JSON.
func runDemo(chromium string, seconds int) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(seconds)*time.Second+time.Minute)
	defer cancel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: http.FileServer(http.Dir("bin/web"))}
	go hs.Serve(ln)
	defer hs.Close()
	b, done, err := startChromium(chromium, "--window-size=1800,800")
	if err != nil {
		return err
	}
	defer done()
	s, err := b.OpenPage(ctx)
	if err != nil {
		return err
	}
	if err := b.Call(ctx, s, "Page.navigate", map[string]any{"url": fmt.Sprintf("http://%s/?demo=1&report=%d", ln.Addr(), seconds)}, nil); err != nil {
		return err
	}
	line, err := nextReport(ctx, b)
	if err != nil {
		return fmt.Errorf("no report from the demo page: %w", err)
	}
	var r struct {
		FPS     float64 `json:"fps"`
		Clients []page  `json:"clients"`
	}
	if err := json.Unmarshal([]byte(line), &r); err != nil {
		return fmt.Errorf("the report does not parse: %w", err)
	}
	out := map[string]any{"fps": r.FPS, "seconds": seconds, "width": 1800, "height": 800}
	for _, c := range r.Clients {
		out[c.Name+"_snapshots_lost"] = c.SnapshotsLost
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
