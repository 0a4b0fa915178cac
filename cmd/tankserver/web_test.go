package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"tanknet/carriage"
	"tanknet/client"
)

// startWebGame runs tankserver in process with -web on loopback (contact predicted, the default), the page
// from a folder holding index.html; it returns the page's URL, the game's UDP address and
// the log.
func startWebGame(t *testing.T, ctx context.Context) (pageURL, addr string, logs *serverLog) {
	t.Helper()
	return startWebGameWith(t, ctx, nil, nil)
}

// startWebGameWith is startWebGame with the Config changed by change (when not nil) and the
// signals given to run.
func startWebGameWith(t *testing.T, ctx context.Context, change func(*Config), signals <-chan os.Signal) (pageURL, addr string, logs *serverLog) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte("<title>tanknet</title>"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeWasm(t, dir)
	logs = new(serverLog)
	cfg := DefaultConfig()
	cfg.Server.Addr = freeUDPAddr(t)
	cfg.Server.Logger = slog.New(slog.NewTextHandler(logs, nil))
	cfg.Web.Addr, cfg.Web.Dir = "127.0.0.1:0", dir
	cfg.Web.Hub.AllowCandidate = carriage.IsLoopback // pair with loopback candidates only
	if change != nil {
		change(&cfg)
	}
	done := make(chan error, 1)
	go func() { done <- run(ctx, cfg, signals) }()
	t.Cleanup(func() {
		if err := runResult(t, done, "tankserver -web"); err != nil {
			t.Errorf("run: %v", err)
		}
		if t.Failed() {
			t.Logf("tankserver's log:\n%s", logs.String())
		}
	})
	logs.waitFor(t, "serving the browser client")
	m := regexp.MustCompile(`url=(http://127\.0\.0\.1:[0-9]+/)`).FindStringSubmatch(logs.String())
	if m == nil {
		t.Fatalf("no page url in the log:\n%s", logs.String())
	}
	return m[1], cfg.Server.Addr, logs
}

// TestWeb_BrowserAndNativeBotShareTheRoom: with -web, tankserver serves the page and takes
// a WebRTC peer whose KCP session joins the default room beside a native bot's; both play,
// see each other, and predict exactly (contact on: predicted); the page's folder is served.
func TestWeb_BrowserAndNativeBotShareTheRoom(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	page, addr, logs := startWebGame(t, ctx)

	resp, err := http.Get(page)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "tanknet") {
		t.Errorf("GET %s = %s %q, want the page", page, resp.Status, body)
	}

	dialCtx, dialCancel := context.WithTimeout(ctx, 20*time.Second)
	defer dialCancel()
	pc, err := carriage.Dialer{API: carriage.LoopbackAPI()}.Dial(dialCtx, strings.TrimSuffix(page, "/")+carriage.OfferPath)
	if err != nil {
		t.Fatalf("carriage.Dial: %v", err)
	}
	reports := make([]client.Report, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i, name := range []string{"web", "native"} {
		cfg := client.BotConfig{Addr: addr, Name: name, Seed: uint64(i + 1), Options: client.DefaultOptions(),
			Duration: 3 * time.Second, DialTimeout: 20 * time.Second}
		if name == "web" {
			cfg.PacketConn = pc
		}
		wg.Add(1)
		go func() { defer wg.Done(); reports[i], errs[i] = client.RunBot(ctx, cfg) }()
	}
	wg.Wait()
	for i, r := range reports {
		if errs[i] != nil {
			t.Fatalf("bot %d: %v", i, errs[i])
		}
		if r.PlayersSeen < 2 || r.LastAck == 0 || r.Snapshots == 0 || r.ResidualNonZero != 0 || r.Reconciliations == 0 {
			t.Errorf("%s: players_seen %d, last_ack %d, snapshots %d, reconciliations %d, residual_nonzero %d; want 2 seen, inputs acknowledged, snapshots, reconciliations and residual 0",
				r.Name, r.PlayersSeen, r.LastAck, r.Snapshots, r.Reconciliations, r.ResidualNonZero)
		}
	}
	if !strings.Contains(logs.String(), "browser joined over webrtc") {
		t.Error("the log does not say a browser joined over webrtc")
	}
	cancel()
	logs.waitFor(t, `msg=browsers offers_answered=1 joined=1`)
}

// TestWeb_PageNotBuilt: with no page in -web-dir the server still starts (it answers WebRTC
// offers from a page served elsewhere), warns in its log where the page should be, and
// answers the page's URL 404 with how to build it, not with an empty folder's listing.
func TestWeb_PageNotBuilt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	empty := t.TempDir()
	page, _, logs := startWebGameWith(t, ctx, func(c *Config) { c.Web.Dir = empty }, nil)
	// The warning follows the "serving" line that startWebGameWith waited for.
	logs.waitFor(t, "the browser client is not built in the page folder")
	resp, err := http.Get(page)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(string(body), "run make web, or give tankserver -web-dir") {
		t.Errorf("GET %s = %d %q, want 404 saying how to build the page", page, resp.StatusCode, body)
	}
}

// TestWeb_Flags: the -web flags reach the Config, and an ICE address that is not one is
// refused before anything listens.
func TestWeb_Flags(t *testing.T) {
	cfg, err := parse("-web", "127.0.0.1:8080", "-web-ice", "127.0.0.1:9000", "-web-dir", "site", "-web-public-ip", "203.0.113.5")
	if err != nil {
		t.Fatal(err)
	}
	if w := cfg.Web; w.Addr != "127.0.0.1:8080" || w.ICE != "127.0.0.1:9000" || w.Dir != "site" || w.PublicIP != "203.0.113.5" {
		t.Errorf("parsed %+v", w)
	}
	if ice, _ := (WebConfig{Addr: "127.0.0.1:8080"}).iceAddr(); ice != "127.0.0.1:8080" {
		t.Errorf("the default ICE address is %q, want -web's", ice)
	}
	for _, args := range [][]string{{"-web", "127.0.0.1:8080", "-web-ice", "nowhere"}, {"-web", "127.0.0.1:8080", "-web-public-ip", "a.b"}} {
		if _, err := parse(args...); err == nil {
			t.Errorf("parse(%q) succeeded", args)
		}
	}
}

// wasmBody stands for tankclient.wasm in the tests' page folders.
var wasmBody = bytes.Repeat([]byte("\x00asm tanknet "), 1000)

// writeWasm puts tankclient.wasm and its gzip copy in dir, as make web does.
func writeWasm(t *testing.T, dir string) {
	t.Helper()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(wasmBody)
	zw.Close()
	if err := os.WriteFile(filepath.Join(dir, "tankclient.wasm"), wasmBody, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tankclient.wasm.gz"), gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestWeb_ServesTheWasmCompressed: the page's wasm goes out as application/wasm, gzipped to
// a browser that accepts gzip and whole to one that does not; a missing page folder is a
// 404 that says how to build it.
func TestWeb_ServesTheWasmCompressed(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte("<title>tanknet</title>"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeWasm(t, dir)
	srv := httptest.NewServer(pageHandler(dir))
	defer srv.Close()
	for _, enc := range []string{"gzip, deflate, br", ""} {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/tankclient.wasm", nil)
		req.Header.Set("Accept-Encoding", enc) // set by hand: the client leaves the body as sent
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if enc != "" {
			if resp.Header.Get("Content-Encoding") != "gzip" {
				t.Fatalf("Accept-Encoding %q: Content-Encoding %q, want gzip", enc, resp.Header.Get("Content-Encoding"))
			}
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			if body, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
		}
		if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || ct != "application/wasm" || !bytes.Equal(body, wasmBody) {
			t.Errorf("Accept-Encoding %q: %s, Content-Type %q, %d bytes; want 200, application/wasm and the wasm", enc, resp.Status, ct, len(body))
		}
	}
	missing := httptest.NewServer(pageHandler(filepath.Join(dir, "nowhere")))
	defer missing.Close()
	resp, err := http.Get(missing.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(string(body), "make web") {
		t.Errorf("a missing page folder: %s %q, want 404 and how to build it", resp.Status, body)
	}
}

// TestWeb_DoorMetricsAndDrain: with -web and -metrics, /metrics carries the browsers'
// door's counters (tanknet_web_*, every reason at 0 from the start); from the moment a drain
// starts an offer gets 503, counted as refused while stopping.
func TestWeb_DoorMetricsAndDrain(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := make(chan os.Signal, 2)
	page, _, logs := startWebGameWith(t, ctx, func(c *Config) {
		c.Metrics = "127.0.0.1:0"
		c.Drain = time.Minute
	}, sigs)
	logs.waitFor(t, "serving metrics")
	m := regexp.MustCompile(`url=http://(127\.0\.0\.1:[0-9]+)/metrics`).FindStringSubmatch(logs.String())
	if m == nil {
		t.Fatalf("no metrics url in the log:\n%s", logs.String())
	}
	metricsAddr := m[1]
	offerURL := strings.TrimSuffix(page, "/") + carriage.OfferPath
	scrape := func() string {
		resp, err := http.Get("http://" + metricsAddr + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	got := scrape()
	for _, want := range []string{
		"tanknet_web_peers 0", "tanknet_web_offers_answered_total 0", `tanknet_web_offers_refused_total{reason="stopping"} 0`,
		`tanknet_web_peers_dropped_total{reason="evicted"} 0`, `tanknet_web_peers_dropped_total{reason="left_game"} 0`,
		"tanknet_web_extra_channels_total 0", "tanknet_web_text_messages_total 0",
	} {
		if !strings.Contains(got, want+"\n") {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	sigs <- syscall.SIGTERM
	logs.waitFor(t, "draining: new players are refused") // logged once the drain is in force
	resp, err := http.Post(offerURL, "application/json", strings.NewReader(`{"type":"offer","sdp":""}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("an offer during the drain = %s %q, want 503", resp.Status, body)
	}
	if got := scrape(); !strings.Contains(got, `tanknet_web_offers_refused_total{reason="stopping"} 1`+"\n") {
		t.Errorf("/metrics does not count the offer refused while stopping:\n%s", grepLines(got, "tanknet_web_"))
	}
}

// grepLines returns the lines of s that contain sub.
func grepLines(s, sub string) string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if strings.Contains(line, sub) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}
