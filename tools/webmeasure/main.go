package main

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"tanknet/carriage"
	"tanknet/internal/cdp"
	"tanknet/internal/cliflag"
)

func main() {
	connects := flag.Int("connects", 10, "page loads timed one after another for connect_ms")
	pages := flag.Int("pages", 8, "browser players in the load run")
	bots := flag.Int("bots", 8, "native bots (bin/tanksim) beside them")
	webrtcBots := flag.Int("webrtc-bots", 0, "Go bots that join over WebRTC (bin/tanksim -web: pion, no browser) beside them too, so the report parts the page's round trip into the browsers' door (webrtc minus native) and the browser (page minus webrtc)")
	duration := flag.Duration("duration", 60*time.Second, "how long the load run plays")
	chromium := flag.String("chromium", "chromium", "the Chromium `binary`")
	size := flag.String("size", "480x320", "each page's window `WxH` (eight pages drawing in software on two cores: keep them small)")
	fresh := flag.Bool("fresh", false, "time each page load in a Chromium of its own with an empty profile (nothing cached), as a first visit")
	frameDriven := flag.Bool("frame-driven", false, "the load run's pages advance their game only when they draw a frame (frame-driven=1), to compare with the default")
	worker := flag.Bool("worker", true, "the pages run their game in a Web Worker, the page only drawing it (the default page); -worker=false adds worker=0, everything on the page's one thread, to compare")
	away := flag.Duration("away", 0, "instead, play one page, hide it for this long, freeze it as long (Page Lifecycle), bring it back and report whether it stayed in without a snap")
	runs := flag.Int("runs", 1, "how many times the load run plays, one after another against the same server: the report's browser and native figures are the run with the median round-trip gap (page minus native), and rtt_runs lists every run's")
	demo := flag.Int("demo", 0, "instead, open the three-pane demo in one 1800x800 page (?demo=1, no server) for this many `seconds` and report its frame rate")
	cliflag.ParseCommandLine("webmeasure")
	if *away > 0 {
		if err := runAway(*chromium, *away); err != nil {
			fmt.Fprintln(os.Stderr, "webmeasure:", err)
			os.Exit(1)
		}
		return
	}
	if *demo > 0 {
		if err := runDemo(*chromium, *demo); err != nil {
			fmt.Fprintln(os.Stderr, "webmeasure:", err)
			os.Exit(1)
		}
		return
	}
	extra, every := "", ""
	if !*worker {
		every = "&worker=0"
	}
	if *frameDriven {
		extra = "&frame-driven=1"
	}
	w, h, ok := strings.Cut(*size, "x")
	if _, err := strconv.ParseUint(w+h, 10, 32); !ok || err != nil {
		fmt.Fprintf(os.Stderr, "webmeasure: -size %q: want WIDTHxHEIGHT, as 480x320\n", *size)
		os.Exit(2)
	}
	if *runs < 1 {
		fmt.Fprintf(os.Stderr, "webmeasure: -runs %d: want at least 1\n", *runs)
		os.Exit(2)
	}
	if burst := carriage.DefaultHubConfig().OfferBurst; *webrtcBots < 0 || *webrtcBots > burst {
		// More would offer beyond the burst while the pages' offers are paced: a page refused
		// for offering too soon gives up.
		fmt.Fprintf(os.Stderr, "webmeasure: -webrtc-bots %d: want 0 to %d (the offers the server takes from one address at once)\n", *webrtcBots, burst)
		os.Exit(2)
	}
	opts := runOptions{chromium: *chromium, connects: *connects, pages: *pages, bots: *bots, webrtcBots: *webrtcBots, runs: *runs, duration: *duration,
		extra: extra + every, every: every, window: "--window-size=" + w + "," + h, fresh: *fresh}
	if err := run(opts); err != nil {
		fmt.Fprintln(os.Stderr, "webmeasure:", err)
		os.Exit(1)
	}
}

// runOptions is what one measurement run does: connects timed page loads (each in a fresh
// Chromium with fresh), then pages beside bots for duration, every page in a window of
// the given --window-size flag, extra added to the load run's URL parameters and every to
// the timed loads' too.
type runOptions struct {
	chromium              string
	connects, pages, bots int
	webrtcBots            int // bots over WebRTC beside the native ones (tanksim -web)
	runs                  int // load runs, one after another
	duration              time.Duration
	extra, every, window  string
	fresh                 bool
}

// chromiumFlags are the flags every measured Chromium runs with.
func (o runOptions) chromiumFlags() []string {
	return []string{"--allow-loopback-in-peer-connection", "--disable-features=WebRtcHideLocalIpsWithMdns",
		// Every page plays at once: none may be throttled as a tab in the background.
		"--disable-background-timer-throttling", "--disable-renderer-backgrounding", "--disable-backgrounding-occluded-windows",
		o.window}
}

// run times the page loads, then plays pages beside bots, and prints the report.
func run(o runOptions) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(o.connects)*30*time.Second+time.Duration(o.runs)*(o.duration+2*time.Minute))
	defer cancel()
	// The timed loads' players, and a run's pages, stay seated until the server notices they
	// are gone.
	srv, url, addr, err := startServer(ctx, (o.pages+o.bots+o.webrtcBots)*o.runs+o.connects)
	if err != nil {
		return err
	}
	defer srv.stop()
	b, done, err := startChromium(o.chromium, o.chromiumFlags()...)
	if err != nil {
		return err
	}
	defer done()
	pace := &offerPace{tokens: carriage.DefaultHubConfig().OfferBurst, cfg: carriage.DefaultHubConfig()}
	connectMs, phaseSummary, err := timeConnects(ctx, o, b, pace, url)
	if err != nil {
		return err
	}
	connects, pages, bots, duration := o.connects, o.pages, o.bots, o.duration
	var runs []loadRun
	for r := range o.runs {
		lr, err := playLoad(ctx, o, b, pace, url, addr, r)
		if err != nil {
			return fmt.Errorf("load run %d: %w", r+1, err)
		}
		runs = append(runs, lr)
	}
	srv.stop() // for its closing lines
	median, gaps := medianRun(runs)
	out := map[string]any{
		"connect_ms": summary(connectMs),
		"phases_ms":  phaseSummary,
		"pages":      pages,
		"browser":    median.browser,
		"native":     median.native,
		"webrtc":     median.webrtc, // null without -webrtc-bots
		// The server's contact in the median run: pairs it pushed apart itself and clients'
		// pushes it applied as zero, the only causes of a residual (PROTOCOL.md §7c).
		"server_contact": median.contact,
		// The cores the browser's processes used in the median run's middle half, by kind:
		// where a page's round trip waits for a core, this says who holds them.
		"browser_cores": median.cores,
		"runs":          o.runs,
		"rtt_runs":      rttRuns(runs),
		// Each run's page round trip minus its native one (the median page's p50 minus the
		// bots' p50): the figure to read when runs differ.
		"rtt_gap_ms": summary(gaps),
		// With -webrtc-bots, each run's WebRTC bots' round trip minus its native bots': the
		// browsers' door alone (signalling aside: DTLS, SCTP and the carriage under the game).
		"webrtc_gap_ms": summary(webrtcGaps(runs)),
		"server_log":    srv.summary(),
		"wasm_bytes":    fileSize("bin/web/tankclient.wasm"),
		"wasm_gzip":     fileSize("bin/web/tankclient.wasm.gz"),
		// The page's game worker's program (cmd/tankworker), loaded beside the page's.
		"worker_wasm_bytes": fileSize("bin/web/tankworker.wasm"),
		"worker_wasm_gzip":  fileSize("bin/web/tankworker.wasm.gz"),
		"duration_s":        duration.Seconds(),
		"native_bots":       bots,
		// The timed page loads were closed without a goodbye: the server's drops count them.
		"connect_pages_closed": connects,
		"window":               strings.TrimPrefix(o.window, "--window-size="),
		"fresh_profiles":       o.fresh,
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// loadRun is one load run's summaries: the pages', the native bots' and, with
// -webrtc-bots, the WebRTC bots' (nil without).
type loadRun struct {
	browser, native, webrtc map[string]any
	contact                 map[string]any     // what the server's contact did in the run (contactSince)
	cores                   map[string]float64 // the browser's processes' cores, by kind (browserCores)
}

// webrtcGaps returns each run's WebRTC bots' median round trip minus its native bots',
// smallest first (none without -webrtc-bots).
func webrtcGaps(runs []loadRun) []float64 {
	var gaps []float64
	for _, r := range runs {
		w, ok1 := p50(r.webrtc)
		n, ok2 := p50(r.native)
		if ok1 && ok2 {
			gaps = append(gaps, math.Round((w-n)*100)/100)
		}
	}
	slices.Sort(gaps)
	return gaps
}

// p50 returns a tanksim summary's median round trip, and whether it has one.
func p50(sim map[string]any) (float64, bool) {
	rtt, ok := sim["rtt_ms"].(map[string]any)
	if !ok {
		return 0, false
	}
	v, ok := rtt["p50"].(float64)
	return v, ok
}

// rtt returns the run's median page round trip and its bots' median, and whether both are
// there.
func (r loadRun) rtt() (page, native float64, ok bool) {
	p, ok1 := r.browser["rtt_ms"].(map[string]float64)
	n, ok2 := p50(r.native)
	return p["p50"], n, ok1 && ok2
}

// playLoad plays run r of the load: o.pages pages beside o.bots native bots for o.duration.
func playLoad(ctx context.Context, o runOptions, b *cdp.Browser, pace *offerPace, url, addr string, r int) (loadRun, error) {
	if o.runs > 1 {
		fmt.Fprintln(os.Stderr, "webmeasure: load run", r+1, "of", o.runs)
	}
	before, err := readMetrics(ctx)
	if err != nil {
		return loadRun{}, err
	}
	native := make(chan map[string]any, 1)
	go func() { native <- runTanksim(ctx, addr, o.bots, o.duration) }()
	webrtc := make(chan map[string]any, 1)
	if o.webrtcBots > 0 {
		for range o.webrtcBots {
			pace.wait(ctx) // their offers come from 127.0.0.1 as the pages' do
		}
		go func() { webrtc <- runTanksim(ctx, addr, o.webrtcBots, o.duration, "-web", url) }()
	} else {
		webrtc <- nil
	}
	cores, opened := make(chan map[string]float64, 1), make(chan struct{})
	coresCtx, stopCores := context.WithCancel(ctx)
	defer stopCores()
	go func() { cores <- browserCores(coresCtx, b, opened, o.duration) }()
	queries := make([]string, o.pages)
	for i := range queries {
		queries[i] = fmt.Sprintf("?name=web%d&bot=1&report=%d%s", r*o.pages+i, int(o.duration.Seconds()), o.extra)
	}
	reps, err := openPages(ctx, b, pace, url, queries, func() { close(opened) })
	if err != nil {
		stopCores()
	}
	sim, simWeb, coresUsed := <-native, <-webrtc, <-cores
	if err != nil {
		return loadRun{}, err
	}
	after, err := readMetrics(ctx)
	if err != nil {
		return loadRun{}, err
	}
	lr := loadRun{browser: browserSummary(reps, o.duration),
		native:  pick(sim, "bots", "rtt_ms", "residual_nonzero", "snapshots_lost", "reconciliations"),
		contact: contactSince(before, after), cores: coresUsed}
	if simWeb != nil {
		lr.webrtc = pick(simWeb, "bots", "transport", "rtt_ms", "residual_nonzero", "snapshots_lost", "reconciliations")
	}
	return lr, nil
}

// medianRun returns the run whose round-trip gap (page minus native) is the median of the
// runs' (the upper middle one of an even count, as summary's p50), and every run's gap,
// smallest first; a run missing either
// round trip is left out of both unless no run has them.
func medianRun(runs []loadRun) (loadRun, []float64) {
	type gapRun struct {
		gap float64
		run loadRun
	}
	var measured []gapRun
	for _, r := range runs {
		if p, n, ok := r.rtt(); ok {
			measured = append(measured, gapRun{p - n, r})
		}
	}
	if len(measured) == 0 {
		return runs[0], nil
	}
	slices.SortStableFunc(measured, func(a, b gapRun) int { return cmp.Compare(a.gap, b.gap) })
	gaps := make([]float64, len(measured))
	for i, m := range measured {
		gaps[i] = math.Round(m.gap*100) / 100
	}
	return measured[len(measured)/2].run, gaps
}

// rttRuns lists each run's page and native round trips, in the order they ran.
func rttRuns(runs []loadRun) []map[string]float64 {
	var out []map[string]float64
	for _, r := range runs {
		if p, n, ok := r.rtt(); ok {
			run := map[string]float64{"browser": p, "native": math.Round(n*100) / 100}
			if w, ok := p50(r.webrtc); ok {
				run["webrtc"] = math.Round(w*100) / 100
			}
			out = append(out, run)
		}
	}
	return out
}

// summary returns the median, minimum and maximum of xs.
func summary(xs []float64) map[string]float64 {
	if len(xs) == 0 {
		return nil
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return map[string]float64{"p50": s[len(s)/2], "min": s[0], "max": s[len(s)-1], "n": float64(len(s))}
}

// pick returns the keys of m that are there.
func pick(m map[string]any, keys ...string) map[string]any {
	out := map[string]any{}
	for _, k := range keys {
		if v, ok := m[k]; ok {
			out[k] = v
		}
	}
	return out
}

// fileSize returns the size of the file at path, 0 when it cannot be read.
func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}
