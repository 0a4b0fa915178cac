package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image/png"
	"log/slog"
	"net/netip"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tanknet/carriage"
	"tanknet/client"
	"tanknet/internal/cdp"
	"tanknet/internal/testbuild"
	"tanknet/server"
)

// The browser test runs in a network namespace of its own (unshare -n): loopback, and a
// veth pair with a default route so Chromium gathers candidates at all. Nothing it does can
// reach any other network. The outer test builds the page, then runs itself again inside.
const (
	inNamespaceEnv = "TANKNET_BROWSER_NETNS" // set in the test run inside the namespace
	webDirEnv      = "TANKNET_BROWSER_WEB"   // the page's folder, built by the outer test
	netnsSetup     = `ip link set lo up && ip link add tn0 type veth peer name tn1 &&
ip addr add 10.255.0.1/24 dev tn0 && ip link set tn0 up && ip link set tn1 up &&
ip route add default via 10.255.0.2 dev tn0 && exec "$0" "$@"`
)

// TestBrowser_JoinsBesideANativeBot: headless Chromium opens the page tankserver -web
// serves (?name=web&bot=1&report=8) and joins a game (contact predicted, the default) over WebRTC beside a
// native bot: its report says transport webrtc, inputs acknowledged, reconciliations with
// no residual but those the server's own separations and refused pushes explain (none when
// the tanks never pile up), and two players seen; the native bot sees two players too; the page's
// screenshot is not blank. Then a page whose server cannot be reached over UDP says so on
// the page (blockedUDP), a phone's touch controls drive and fire (touchInTab), and the demo
// in a tab loses none of its near player's snapshots (demoInTab).
func TestBrowser_JoinsBesideANativeBot(t *testing.T) {
	t.Parallel() // the longest test here, it runs beside the pause tests' waits (pause_test.go)
	browserTest(t, browserJoins)
}

// browserTest runs body, the browser test t, with headless Chromium and the page built: in a
// network namespace of its own (runInNamespace), where body runs when t runs again inside.
func browserTest(t *testing.T, body func(t *testing.T, chromium, webDir string)) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not installed (make deps installs Debian's chromium): the browser test cannot run")
	}
	if os.Getenv(inNamespaceEnv) == "" {
		runInNamespace(t, chromium, body)
		return
	}
	body(t, chromium, os.Getenv(webDirEnv))
}

// runInNamespace runs this test again in a new network namespace, with the page builtPage
// made; where there is no namespace, it runs body on this machine's loopback.
func runInNamespace(t *testing.T, chromium string, body func(t *testing.T, chromium, webDir string)) {
	dir := builtPage(t)
	if err := exec.Command("unshare", "-n", "true").Run(); err != nil {
		// No namespace here (not root, or a container without CAP_SYS_ADMIN): run on this
		// machine's loopback instead; the server's candidates are loopback only (webGame).
		t.Logf("unshare -n failed (%v): running on loopback, where the server pairs with loopback candidates only", err)
		body(t, chromium, dir)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 210*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "unshare", "-n", "sh", "-c", netnsSetup, os.Args[0],
		"-test.run", "^"+t.Name()+"$", "-test.count", "1", "-test.v")
	cmd.Env = append(os.Environ(), inNamespaceEnv+"=1", webDirEnv+"="+dir)
	out, err := cmd.CombinedOutput()
	t.Logf("in a network namespace:\n%s", out)
	if err != nil || !bytes.Contains(out, []byte("--- PASS: "+t.Name())) {
		t.Fatalf("the browser test in its namespace failed: %v", err)
	}
}

// thePage is the page every browser test of this process serves, built once by the first
// test that needs it (building it takes about six seconds of CPU). Nothing writes to it.
var thePage testbuild.Once

// builtPage returns thePage's folder, building it on the first call.
func builtPage(t *testing.T) string {
	t.Helper()
	return thePage.Dir(t, func(dir string) error {
		build := exec.Command("sh", "scripts/build-web.sh", dir)
		build.Dir = "../.."
		if out, err := build.CombinedOutput(); err != nil {
			return fmt.Errorf("build the page: %v\n%s", err, out)
		}
		return nil
	})
}

// webGame runs tankserver in process (contact predicted), -web on loopback serving webDir,
// candidates paired with loopback only, and publicIP as -web-public-ip ("": none), until
// ctx ends or t's cleanup. It returns the page's URL, the game's address and the log.
func webGame(t *testing.T, ctx context.Context, webDir, publicIP string) (page, addr string, logs *serverLog) {
	t.Helper()
	return webGameWith(t, ctx, webDir, func(c *Config) { c.Web.PublicIP = publicIP })
}

// webGameWith is webGame with the config change makes.
func webGameWith(t *testing.T, ctx context.Context, webDir string, change func(*Config)) (page, addr string, logs *serverLog) {
	t.Helper()
	logs = new(serverLog)
	cfg := DefaultConfig()
	cfg.Server.Addr = freeUDPAddr(t)
	cfg.Server.Logger = slog.New(slog.NewTextHandler(logs, nil))
	cfg.Web.Addr, cfg.Web.Dir = "127.0.0.1:0", webDir
	cfg.Web.Hub.AllowCandidate = carriage.IsLoopback
	change(&cfg)
	gameCtx, stopGame := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- run(gameCtx, cfg, nil) }()
	t.Cleanup(func() {
		stopGame()
		<-served
		if t.Failed() {
			t.Logf("tankserver's log:\n%s", logs.String())
		}
	})
	logs.waitFor(t, "serving the browser client")
	return regexp.MustCompile(`url=(http://127\.0\.0\.1:[0-9]+/)`).FindStringSubmatch(logs.String())[1], cfg.Server.Addr, logs
}

// countExplained has the server count into n the tank moves its clients could not have
// predicted: its own separations of tanks still overlapping and the pushes it refused
// (§7c). A residual each may cause is explained; any other is a fault.
func countExplained(n *atomic.Uint64) func(*Config) {
	return func(c *Config) {
		c.observe = func(rec server.TickRecord) {
			k := rec.Counts.Contacts
			for _, r := range rec.Counts.PushesRefused {
				k += r
			}
			n.Add(k)
		}
	}
}

// nativeBot plays a native bot ("native", seed 7) at addr until ctx ends or the returned
// stop is called, which returns its report; t's cleanup stops it too, and waits for it.
func nativeBot(t *testing.T, ctx context.Context, addr string) (stop func() client.Report) {
	botCtx, cancel := context.WithCancel(ctx)
	native := make(chan client.Report, 1)
	go func() {
		r, err := client.RunBot(botCtx, client.BotConfig{Addr: addr, Name: "native", Seed: 7,
			Options: client.DefaultOptions(), DialTimeout: 20 * time.Second})
		if err != nil {
			t.Errorf("native bot: %v", err)
		}
		native <- r
	}()
	var (
		once   sync.Once
		report client.Report
	)
	stop = func() client.Report {
		once.Do(func() { cancel(); report = <-native })
		return report
	}
	t.Cleanup(func() { stop() })
	return stop
}

// startChromium starts a headless Chromium whose window is size ("W,H") for the browser
// tests: loopback allowed for WebRTC and no mDNS names, so nothing goes multicast on a LAN.
// It is closed at t's cleanup, logging its stderr if t failed.
func startChromium(t *testing.T, chromium, size string) *cdp.Browser {
	t.Helper()
	var stderr bytes.Buffer
	b, err := cdp.Start(chromium, &stderr, append(slices.Clone(cdp.Headless),
		"--allow-loopback-in-peer-connection", "--user-data-dir="+t.TempDir(), "--window-size="+size,
		"--disable-features=WebRtcHideLocalIpsWithMdns")...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		b.Close()
		if t.Failed() {
			t.Logf("chromium's stderr:\n%s", tail(stderr.String(), 4000))
		}
	})
	return b
}

// browserJoins is the test itself, in the namespace.
func browserJoins(t *testing.T, chromium, webDir string) {
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Second) // about 75 s on a quiet machine; a busy one may take twice that
	defer cancel()
	var explained atomic.Uint64
	page, addr, logs := webGameWith(t, ctx, webDir, countExplained(&explained))

	stopBot := nativeBot(t, ctx, addr)
	b := startChromium(t, chromium, "1280,800")
	session, err := b.OpenPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Call(ctx, session, "Page.navigate", map[string]any{"url": page + "?name=web&bot=1&report=8"}, nil); err != nil {
		t.Fatal(err)
	}
	line, console := awaitConsole(t, ctx, b, "tanknet-report ")
	shot, err := b.Screenshot(ctx, session)
	if err != nil {
		t.Fatal(err)
	}
	nr := stopBot()
	// The page turns multisampling off for Ebitengine's canvas (index.html): its one copy a
	// frame into the canvas gains nothing from it and a software renderer pays for it. The
	// stencil Ebitengine asks for says the context is Ebitengine's, its own attributes kept.
	const aa = `(() => { const c = document.querySelector("canvas"); const gl = c && c.getContext("webgl2");
		if (!gl) return "no WebGL2 canvas"; const a = gl.getContextAttributes();
		return "antialias " + a.antialias + ", stencil " + a.stencil; })()`
	if got := evalString(t, ctx, b, session, aa); got != "antialias false, stencil true" {
		t.Errorf("the page's canvas: %q, want antialias false, stencil true (Ebitengine's context, multisampling off)", got)
	}

	var r struct {
		client.Report
		Transport string             `json:"transport"`
		Joined    bool               `json:"joined"`
		ConnectMs float64            `json:"connect_ms"`
		PhasesMs  map[string]float64 `json:"phases_ms"`
	}
	if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "tanknet-report ")), &r); err != nil {
		t.Fatalf("the report does not parse: %v\n%s", err, line)
	}
	if step := phasesInOrder(r.PhasesMs); step != "" || !r.Joined || r.PhasesMs["welcome"] != r.ConnectMs {
		t.Errorf("the report's phases %v (joined %v, connect_ms %v): %q missing or out of order, want every step in order ending at connect_ms", r.PhasesMs, r.Joined, r.ConnectMs, step)
	}
	t.Logf("browser: %s", line)
	allowed := int(explained.Load()) // read after the bot stopped and the page reported
	if r.Transport != "webrtc" || r.Name != "web" || r.LastAck == 0 || r.Snapshots == 0 ||
		r.Reconciliations == 0 || r.ResidualNonZero > allowed || r.PlayersSeen < 2 || r.ConnectMs <= 0 {
		t.Errorf("the browser's report: transport %q, name %q, last_ack %d, snapshots %d, reconciliations %d, residual_nonzero %d (the server separated or refused %d), players_seen %d, connect_ms %v; want webrtc, web, inputs acknowledged, snapshots, reconciliations, no residual the server did not cause, 2 players seen and a connect time",
			r.Transport, r.Name, r.LastAck, r.Snapshots, r.Reconciliations, r.ResidualNonZero, allowed, r.PlayersSeen, r.ConnectMs)
	}
	if nr.PlayersSeen < 2 || nr.ResidualNonZero > allowed {
		t.Errorf("the native bot saw %d players (residual_nonzero %d, the server separated or refused %d), want the browser's too and no residual the server did not cause", nr.PlayersSeen, nr.ResidualNonZero, allowed)
	}
	reachedOverLoopback(t, logs, 1)
	if path := os.Getenv("TANKNET_BROWSER_SHOT"); path != "" { // to look at it
		if err := os.WriteFile(path, shot, 0o644); err != nil {
			t.Error(err)
		}
	}
	if colors := distinctColors(t, shot); colors < 16 {
		t.Errorf("the screenshot has %d colours: blank, want the arena drawn", colors)
	}
	if t.Failed() {
		t.Logf("the page's console:\n%s", console)
	}
	recordInTab(t, ctx, b, page)
	pageWords(t, ctx, b, page, webDir)
	lobbyInTab(t, ctx, b, page)
	blockedUDP(t, ctx, b, webDir)
	touchInTab(t, ctx, b, webDir)
	awayInTab(t, ctx, b, webDir)
	demoInTab(t, ctx, b, page)
}

// reachedOverLoopback checks that at least n browsers joined the server logging to logs,
// each over an ICE pair on loopback. The server's ICE socket is bound to 127.0.0.1 and
// keeps only loopback candidates of an offer (webGame); the pair each join used says the
// browser was reached there too, in a network namespace or on this machine's loopback.
func reachedOverLoopback(t *testing.T, logs *serverLog, n int) {
	t.Helper()
	joins := regexp.MustCompile(`browser joined over webrtc".* ice=(\S+)`).FindAllStringSubmatch(logs.String(), -1)
	if len(joins) < n {
		t.Errorf("the server logged %d browsers joining over webrtc, want %d", len(joins), n)
	}
	for _, m := range joins {
		if ap, err := netip.ParseAddrPort(m[1]); err != nil || !ap.Addr().IsLoopback() {
			t.Errorf("a browser was reached at %q, want a loopback address", m[1])
		}
	}
}

// recordInTab plays ?record=1 for a few seconds, quits with Esc, and reads back the file the
// page offers as a download: a client recording the replay viewer can open. The page says
// the player left, with links to play again, to the lobby and to the recording, and takes
// the keys and mouse of a visitor still there without an error (playedOut).
func recordInTab(t *testing.T, ctx context.Context, b *cdp.Browser, page string) {
	session, err := b.OpenPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Call(ctx, session, "Page.navigate", map[string]any{"url": page + "?name=rec&bot=1&record=1&report=4"}, nil); err != nil {
		t.Fatal(err)
	}
	awaitConsole(t, ctx, b, "tanknet-report ")
	pressEscape(t, ctx, b, session)
	awaitConsole(t, ctx, b, "tankclient: recording ")
	var got struct {
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
	}
	fetch := `(async () => {
		const a = document.querySelector('#status a[download]');
		const buf = new Uint8Array(await (await fetch(a.href)).arrayBuffer());
		let s = ''; for (const c of buf) s += String.fromCharCode(c);
		return a.download + ' ' + btoa(s);
	})()`
	if err := b.Call(ctx, session, "Runtime.evaluate", map[string]any{"expression": fetch, "awaitPromise": true, "returnByValue": true}, &got); err != nil {
		t.Fatal(err)
	}
	name, b64, _ := strings.Cut(got.Result.Value, " ")
	data, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || name != "tanknet-rec.tnrec" {
		t.Fatalf("the download is %q (%v), want tanknet-rec.tnrec", name, err)
	}
	if _, err := client.NewPlayback(data); err != nil {
		t.Errorf("the recording the page offered (%d bytes) does not open: %v", len(data), err)
	}
	t.Logf("record in a tab: %s, %d bytes", name, len(data))
	// The status line says the player left, and links (in this order) to the page again,
	// to the lobby and to the recording.
	status := evalString(t, ctx, b, session, `document.getElementById("status").textContent + " | " +
		[...document.querySelectorAll("#status a")].map((a) => a.textContent + " " + a.getAttribute("href").slice(0, 6)).join(" | ")`)
	if want := regexp.MustCompile(`^You left the game\. Play again · the lobby · Save the recording tanknet-rec\.tnrec \(\d+ KB\) \| ` +
		`Play again http:/ \| the lobby / \| Save the recording tanknet-rec\.tnrec \(\d+ KB\) blob:h$`); !want.MatchString(status) {
		t.Errorf("after Esc the page says %q, want that the player left, with links to play again, to the lobby and to the recording", status)
	}
	playedOut(t, ctx, b, session)
}

// pressEscape presses and releases Esc on the page of session: the player leaves the game.
func pressEscape(t *testing.T, ctx context.Context, b *cdp.Browser, session string) {
	t.Helper()
	for _, kind := range []string{"keyDown", "keyUp"} {
		key := map[string]any{"type": kind, "key": "Escape", "code": "Escape", "windowsVirtualKeyCode": 27}
		if err := b.Call(ctx, session, "Input.dispatchKeyEvent", key, nil); err != nil {
			t.Fatal(err)
		}
	}
}

// demoInTab opens ?demo=1&report=10: the three-pane demo with its own server, bots and
// simulated links inside the tab, on one thread. Its near player, on network none, loses no
// snapshot: the in-tab server lets its session writers send each tick's snapshots before
// the next tick (server.yieldToWriters), and the bots update 20 times a second. Esc ends
// it, and the page says so.
func demoInTab(t *testing.T, ctx context.Context, b *cdp.Browser, page string) {
	session, err := b.OpenPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Call(ctx, session, "Page.navigate", map[string]any{"url": page + "?demo=1&report=10"}, nil); err != nil {
		t.Fatal(err)
	}
	line, console := awaitConsole(t, ctx, b, "tanknet-report ")
	var r struct {
		Transport string          `json:"transport"`
		Clients   []client.Report `json:"clients"`
	}
	if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "tanknet-report ")), &r); err != nil {
		t.Fatalf("the demo's report does not parse: %v\n%s", err, line)
	}
	if r.Transport != "in-tab" || len(r.Clients) != 2 || r.Clients[0].Name != "near" || r.Clients[1].Name != "far" {
		t.Fatalf("the demo's report: transport %q, clients %+v; want in-tab, near and far; console:\n%s", r.Transport, r.Clients, console)
	}
	if status := evalString(t, ctx, b, session, "document.getElementById('status').textContent"); status != "" {
		t.Errorf("the demo runs but the page still says %q", status)
	}
	near := r.Clients[0]
	if near.Snapshots == 0 || near.SnapshotsLost != 0 {
		t.Errorf("the demo's near player (network none) got %d snapshots and lost %d, want none lost", near.Snapshots, near.SnapshotsLost)
	}
	t.Logf("demo in a tab: near %d snapshots, %d lost; far %d snapshots, %d lost", near.Snapshots, near.SnapshotsLost, r.Clients[1].Snapshots, r.Clients[1].SnapshotsLost)
	pressEscape(t, ctx, b, session)
	awaitStatus(t, ctx, b, session, "The demo has ended. Watch it again")
}

// blockedUDP opens the page of a server whose answers name an ICE address nothing listens
// at (127.0.0.9; the server's socket is on 127.0.0.1): as far as the browser can tell, UDP
// to the server is blocked. The page says so, in plain words, instead of hanging.
func blockedUDP(t *testing.T, ctx context.Context, b *cdp.Browser, webDir string) {
	page, _, _ := webGame(t, ctx, webDir, "127.0.0.9")
	session, err := b.OpenPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Call(ctx, session, "Page.navigate", map[string]any{"url": page + "?name=blocked"}, nil); err != nil {
		t.Fatal(err)
	}
	line, console := awaitConsole(t, ctx, b, "tankclient: ")
	if !strings.Contains(line, "cannot reach the game server") || !strings.Contains(line, "UDP") {
		t.Errorf("with UDP blocked the page said %q, want that it cannot reach the server over UDP; console:\n%s", line, console)
	}
	var status struct {
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
	}
	if err := b.Call(ctx, session, "Runtime.evaluate", map[string]any{"expression": "document.getElementById('status').textContent", "returnByValue": true}, &status); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(status.Result.Value, "cannot reach the game server") {
		t.Errorf("the page shows %q, want the reason it cannot connect", status.Result.Value)
	}
	t.Logf("with UDP blocked: %s", line)
}

// awaitConsole returns the first console line of the page that starts with prefix, and
// the console so far, where an error thrown and not caught reads "uncaught: " and its
// description; it fails t when ctx ends first.
func awaitConsole(t *testing.T, ctx context.Context, b *cdp.Browser, prefix string) (string, string) {
	t.Helper()
	var console strings.Builder
	for {
		select {
		case e := <-b.Events():
			text, ok := cdp.ConsoleText(e)
			if thrown, was := cdp.ExceptionText(e); was {
				text, ok = uncaught+thrown, true
			}
			if !ok {
				continue
			}
			console.WriteString(text + "\n")
			if strings.HasPrefix(text, prefix) {
				return text, console.String()
			}
		case <-ctx.Done():
			t.Fatalf("no console line %q from the page; its console:\n%s", prefix, console.String())
		}
	}
}

// uncaught starts the console line awaitConsole writes for an error the page threw and
// nothing caught.
const uncaught = "uncaught: "

// playedOut checks that the page of session, whose game has ended, still takes what a
// visitor does without an error: keys pressed, the mouse moved and clicked and the window
// resized reach the listeners the game set up (Ebitengine's), which call into the page's
// program. A program that had exited would throw at each one; one that stepped its ended
// game again could panic.
func playedOut(t *testing.T, ctx context.Context, b *cdp.Browser, session string) {
	t.Helper()
	for _, key := range []string{"w", "a", " ", "Escape"} {
		for _, kind := range []string{"keyDown", "keyUp"} {
			if err := b.Call(ctx, session, "Input.dispatchKeyEvent", map[string]any{"type": kind, "key": key}, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, kind := range []string{"mouseMoved", "mousePressed", "mouseReleased"} {
		ev := map[string]any{"type": kind, "x": 200, "y": 150, "button": "left", "clickCount": 1}
		if err := b.Call(ctx, session, "Input.dispatchMouseEvent", ev, nil); err != nil {
			t.Fatal(err)
		}
	}
	// A window resized: Ebitengine draws a frame of the (ended) game at once.
	metrics := map[string]any{"width": 900, "height": 600, "deviceScaleFactor": 1, "mobile": false}
	if err := b.Call(ctx, session, "Emulation.setDeviceMetricsOverride", metrics, nil); err != nil {
		t.Fatal(err)
	}
	if err := b.Call(ctx, session, "Emulation.clearDeviceMetricsOverride", nil, nil); err != nil {
		t.Fatal(err)
	}
	// The frame it drew (a timer's turn later) comes before the line below.
	evalString(t, ctx, b, session, `new Promise((done) => setTimeout(() => done(""), 200))`)
	// The page's messages come in order: what the input threw comes before this line.
	const mark = "tanknet-test: played out"
	if err := b.Call(ctx, session, "Runtime.evaluate", map[string]any{"expression": "console.log(" + strconv.Quote(mark) + ")"}, nil); err != nil {
		t.Fatal(err)
	}
	_, console := awaitConsole(t, ctx, b, mark)
	n := 0
	for _, line := range strings.Split(console, "\n") {
		if strings.HasPrefix(line, uncaught) || strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ") {
			n++
		}
	}
	if n > 0 {
		t.Errorf("after its game ended the page threw or panicked %d times at a visitor's keys, mouse and a resize; its console:\n%s", n, console)
	}
}

// distinctColors counts the colours of a PNG, up to 1000.
func distinctColors(t *testing.T, shot []byte) int {
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("the screenshot: %v", err)
	}
	seen := map[[4]uint32]bool{}
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y && len(seen) < 1000; y += 2 {
		for x := bounds.Min.X; x < bounds.Max.X; x += 2 {
			r, g, b, a := img.At(x, y).RGBA()
			seen[[4]uint32{r, g, b, a}] = true
		}
	}
	return len(seen)
}

// tail returns the last n bytes of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}
