package main

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/internal/cdp"
)

// awayHold is how long awayInTab keeps its page hidden, and then frozen: past the server's
// idle timeout there, so a page that did not say it was away would be dropped. The idle
// timeout is short for the test, but long enough that a page playing visibly on a loaded
// machine is not dropped for a stall of its own.
const (
	awayIdle = 3 * time.Second
	awayHold = 5 * time.Second
)

// awayInTab hides a playing page for longer than the server's idle timeout, then freezes it
// as long (CDP's Page.setWebLifecycleState, as Chromium freezes a tab long in the
// background: it runs no code at all), then shows it again: the page says it is away as it
// is hidden (PROTOCOL.md §6b), the server holds its tank still and waits, and when the page
// is back it says for how long it was paused and plays on, with no snap and no correction
// left standing. The freeze is checked to have stopped the page and its game's worker: a
// timer in each saw no turn for most of it (stillWhileFrozen).
func awayInTab(t *testing.T, ctx context.Context, b *cdp.Browser, webDir string) {
	page, _, logs := webGameWith(t, ctx, webDir, func(c *Config) {
		c.Server.IdleTimeout, c.Server.AwayTimeout = awayIdle, 30*time.Second
	})
	session, err := b.OpenPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Call(ctx, session, "Page.close", nil, nil)
	navigate(t, ctx, b, session, page+"?name=away&bot=1&report=20")
	logs.waitFor(t, "name=away")
	worker := workerSession(t, ctx, b, session)
	time.Sleep(time.Second) // play a little first

	lifecycle := func(state string) {
		t.Helper()
		if err := b.Call(ctx, session, "Page.setWebLifecycleState", map[string]any{"state": state}, nil); err != nil {
			t.Fatalf("Page.setWebLifecycleState %s: %v", state, err)
		}
	}
	// Headless Chromium never hides a page by itself: the page is told it is hidden and
	// shown as a browser tells it, with visibilitychange, and reads its visibilityState.
	show := func(state string) {
		t.Helper()
		evalString(t, ctx, b, session, `Object.defineProperty(document, "visibilityState", {configurable: true, get: () => "`+state+`"});
			document.dispatchEvent(new Event("visibilitychange")); "`+state+`"`)
	}
	show("hidden")
	awaitStatus(t, ctx, b, session, "this tab is hidden")
	time.Sleep(awayHold)
	for _, in := range []string{session, worker} {
		evalString(t, ctx, b, in, timerGaps)
	}
	lifecycle("frozen") // as Chromium freezes a tab long in the background: no code runs
	time.Sleep(awayHold)
	lifecycle("active")
	stillWhileFrozen(t, ctx, b, map[string]string{"page": session, "game's worker": worker})
	// Headless Chromium leaves a page it froze hidden: brought to the front and focused, it
	// draws again, as a tab clicked on does.
	activate(t, ctx, b, session)
	if err := b.Call(ctx, session, "Emulation.setFocusEmulationEnabled", map[string]any{"enabled": true}, nil); err != nil {
		t.Fatal(err)
	}
	show("visible")
	awaitStatus(t, ctx, b, session, "paused for")

	line, console := awaitConsole(t, ctx, b, "tanknet-report ")
	var r client.Report
	if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "tanknet-report ")), &r); err != nil {
		t.Fatalf("the report does not parse: %v\n%s", err, line)
	}
	if r.Name != "away" || r.Snaps != 0 || r.ResidualNonZero != 0 || r.Reconciliations == 0 {
		t.Errorf("the page that was hidden, then frozen: %s\nwant player away, no snap, no residual, reconciliations after it came back\nits console:\n%s", line, console)
	}
	if strings.Contains(logs.String(), "player left") {
		t.Errorf("the server let the page go while it was away:\n%s", logs.String())
	}
}

// workerSession attaches to the dedicated worker of the page of session (the game's:
// tankworker.js) and returns its session, to evaluate in it.
func workerSession(t *testing.T, ctx context.Context, b *cdp.Browser, session string) string {
	t.Helper()
	auto := map[string]any{"autoAttach": true, "waitForDebuggerOnStart": false, "flatten": true}
	if err := b.Call(ctx, session, "Target.setAutoAttach", auto, nil); err != nil {
		t.Fatal(err)
	}
	for {
		select {
		case e := <-b.Events():
			if e.Method != "Target.attachedToTarget" {
				continue
			}
			var p struct {
				SessionID  string `json:"sessionId"`
				TargetInfo struct {
					Type string `json:"type"`
				} `json:"targetInfo"`
			}
			if json.Unmarshal(e.Params, &p) == nil && p.TargetInfo.Type == "worker" {
				return p.SessionID
			}
		case <-ctx.Done():
			t.Fatal("the page started no worker to attach to")
		}
	}
}

// timerGaps starts a 50 ms timer in a page or worker (self) that keeps the longest time
// between two of its turns; timerGap reads it, counting the time since the last turn too.
const (
	timerGaps = `self.tanknetLongestGap = 0; self.tanknetLastTurn = performance.now();
		setInterval(() => { const now = performance.now();
			self.tanknetLongestGap = Math.max(self.tanknetLongestGap, now - self.tanknetLastTurn); self.tanknetLastTurn = now; }, 50); ""`
	timerGap = `String(Math.round(Math.max(self.tanknetLongestGap, performance.now() - self.tanknetLastTurn)))`
)

// stillWhileFrozen checks that each of sessions (by what it is), frozen for awayHold since
// timerGaps started in it, ran none of its timers for at least half of that: Chromium's freeze
// stopped it, rather than leaving it running while the test thought it frozen.
func stillWhileFrozen(t *testing.T, ctx context.Context, b *cdp.Browser, sessions map[string]string) {
	t.Helper()
	for what, in := range sessions {
		ms, err := strconv.Atoi(evalString(t, ctx, b, in, timerGap))
		if err != nil || time.Duration(ms)*time.Millisecond < awayHold/2 {
			t.Errorf("the %s's timer (every 50 ms) went at most %d ms without a turn while frozen for %v (%v): the freeze did not stop it", what, ms, awayHold, err)
		}
	}
}

// activate brings the page of session to the front (Target.activateTarget), as a click on
// its tab does.
func activate(t *testing.T, ctx context.Context, b *cdp.Browser, session string) {
	t.Helper()
	var info struct {
		TargetInfo struct {
			TargetID string `json:"targetId"`
		} `json:"targetInfo"`
	}
	if err := b.Call(ctx, session, "Target.getTargetInfo", nil, &info); err != nil {
		t.Fatal(err)
	}
	if err := b.Call(ctx, "", "Target.activateTarget", map[string]any{"targetId": info.TargetInfo.TargetID}, nil); err != nil {
		t.Fatal(err)
	}
}

// awaitStatus waits until the page's status line says want.
func awaitStatus(t *testing.T, ctx context.Context, b *cdp.Browser, session, want string) {
	t.Helper()
	expr := `document.getElementById("status").textContent`
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		got := evalString(t, ctx, b, session, expr)
		if strings.Contains(got, want) {
			return
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			t.Fatalf("the page's status line says %q (the page is %s), want %q in it", got, evalString(t, ctx, b, session, "document.visibilityState"), want)
		}
	}
}
