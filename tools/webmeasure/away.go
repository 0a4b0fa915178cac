package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"tanknet/internal/cdp"
	"tanknet/internal/pause"
)

// runAway plays one page whose tank drives itself, hides it for hold, freezes it for hold
// (the Page Lifecycle's frozen state: no code runs), brings it back, plays until its report (15 s past twice hold, counted from the join: about 13 s more), and
// prints the page's report beside the server's closing lines: a page that stays in has no
// drop there, and one that comes back cleanly has no snap (PROTOCOL.md §6b).
func runAway(chromium string, hold time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*hold+3*time.Minute)
	defer cancel()
	srv, url, _, err := startServer(ctx, 1)
	if err != nil {
		return err
	}
	defer srv.stop()
	b, done, err := startChromium(chromium, "--allow-loopback-in-peer-connection", "--disable-features=WebRtcHideLocalIpsWithMdns", "--window-size=480,320")
	if err != nil {
		return err
	}
	defer done()
	session, err := b.OpenPage(ctx)
	if err != nil {
		return err
	}
	report := int((2*hold + 15*time.Second).Seconds())
	if err := b.Call(ctx, session, "Page.navigate", map[string]any{"url": fmt.Sprintf("%s?name=away&bot=1&report=%d", url, report)}, nil); err != nil {
		return err
	}
	for !strings.Contains(srv.String(), "name=away") {
		if !pause.For(ctx, 100*time.Millisecond) {
			return fmt.Errorf("the page never joined: %s", srv.String())
		}
	}
	pause.For(ctx, 2*time.Second)
	if err := awayAndBack(ctx, b, session, hold); err != nil {
		return err
	}
	line, err := nextReport(ctx, b)
	if err != nil {
		return err
	}
	var rep map[string]any
	if err := json.Unmarshal([]byte(line), &rep); err != nil {
		return fmt.Errorf("the report does not parse: %w", err)
	}
	srv.stop()
	out := map[string]any{"hidden_s": hold.Seconds(), "frozen_s": hold.Seconds(), "page": pick(rep, "name", "joined", "snaps", "residual_nonzero", "reconciliations", "snapshots_lost", "rtt_ms"),
		"server_log": srv.summary(), "server_drops": serverDrops(srv.summary())}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// awayAndBack hides the page of session for hold (headless Chromium never hides a page by
// itself: the page is told, as a browser tells it, with visibilitychange), freezes it for
// hold, and shows it again (brought to the front and focused, as a click on its tab does).
func awayAndBack(ctx context.Context, b *cdp.Browser, session string, hold time.Duration) error {
	show := func(state string) error {
		return b.Call(ctx, session, "Runtime.evaluate", map[string]any{"expression": `Object.defineProperty(document, "visibilityState", {configurable: true, get: () => "` + state + `"});
			document.dispatchEvent(new Event("visibilitychange"))`}, nil)
	}
	var info struct {
		TargetInfo struct {
			TargetID string `json:"targetId"`
		} `json:"targetInfo"`
	}
	steps := []func() error{
		func() error { return show("hidden") },
		func() error { pause.For(ctx, hold); return nil },
		func() error {
			return b.Call(ctx, session, "Page.setWebLifecycleState", map[string]any{"state": "frozen"}, nil)
		},
		func() error { pause.For(ctx, hold); return nil },
		func() error {
			return b.Call(ctx, session, "Page.setWebLifecycleState", map[string]any{"state": "active"}, nil)
		},
		func() error { return b.Call(ctx, session, "Target.getTargetInfo", nil, &info) },
		func() error {
			return b.Call(ctx, "", "Target.activateTarget", map[string]any{"targetId": info.TargetInfo.TargetID}, nil)
		},
		func() error {
			return b.Call(ctx, session, "Emulation.setFocusEmulationEnabled", map[string]any{"enabled": true}, nil)
		},
		func() error { return show("visible") },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return ctx.Err()
}

var dropsField = regexp.MustCompile(`msg="server stopped".* drops=([0-9]+)`)

// serverDrops returns the players the server dropped, from its closing lines; -1 when they
// do not say.
func serverDrops(lines []string) int {
	for _, l := range lines {
		if m := dropsField.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[1])
			return n
		}
	}
	return -1
}
