package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"tanknet/carriage"
	"tanknet/internal/cdp"
	"tanknet/internal/cliflag"
)

// page is what one page's tanknet-report line says, in the fields webmeasure reads.
type page struct {
	Name            string  `json:"name"`
	ConnectMs       float64 `json:"connect_ms"`
	RTTMs           float64 `json:"rtt_ms"`     // the newest round trip
	RTTMedianMs     float64 `json:"rtt_p50_ms"` // the page's median round trip (0 from a build before it)
	Snapshots       int     `json:"snapshots"`
	SnapshotsLost   int     `json:"snapshots_lost"`
	ResidualNonZero int     `json:"residual_nonzero"`
	PlayersSeen     int     `json:"players_seen"`
	Transport       string  `json:"transport"`
	Joined          bool    `json:"joined"`
	Error           string  `json:"error"`
	// PhasesMs is when each step of connecting happened, ms from navigation start.
	PhasesMs map[string]float64 `json:"phases_ms"`
	FPS      float64            `json:"fps"`
	// Worker says the page's game ran in its Web Worker; DrawnMatches that the Game it drew
	// matched the worker's at the report's frame (absent: not checked).
	Worker       bool  `json:"worker"`
	DrawnMatches *bool `json:"drawn_matches"`
	// InputWait is how long the page's inputs waited in the server's buffer.
	InputWait *struct {
		Samples int     `json:"samples"`
		P50Ms   float64 `json:"p50_ms"`
		P90Ms   float64 `json:"p90_ms"`
		Starved int     `json:"starved"`
	} `json:"input_wait"`
}

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
	cores := make(chan map[string]float64, 1)
	coresCtx, stopCores := context.WithCancel(ctx)
	defer stopCores()
	go func() { cores <- browserCores(coresCtx, b, o.duration) }()
	queries := make([]string, o.pages)
	for i := range queries {
		queries[i] = fmt.Sprintf("?name=web%d&bot=1&report=%d%s", r*o.pages+i, int(o.duration.Seconds()), o.extra)
	}
	reps, err := openPages(ctx, b, pace, url, queries)
	if err != nil {
		stopCores()
	}
	sim, simWeb, browserCores := <-native, <-webrtc, <-cores
	if err != nil {
		return loadRun{}, err
	}
	after, err := readMetrics(ctx)
	if err != nil {
		return loadRun{}, err
	}
	lr := loadRun{browser: browserSummary(reps, o.duration),
		native:  pick(sim, "bots", "rtt_ms", "residual_nonzero", "snapshots_lost", "reconciliations"),
		contact: contactSince(before, after), cores: browserCores}
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

// timeConnects opens o.connects pages one after another, each in b or, with o.fresh, in a
// Chromium of its own, and returns each one's time to its Welcome and the summary of its
// phases.
func timeConnects(ctx context.Context, o runOptions, b *cdp.Browser, pace *offerPace, url string) ([]float64, map[string]any, error) {
	var connectMs []float64
	phases := map[string][]float64{}
	for i := range o.connects {
		fmt.Fprintln(os.Stderr, "webmeasure: connect", i+1)
		in, done := b, func() {}
		if o.fresh {
			var err error
			if in, done, err = startChromium(o.chromium, o.chromiumFlags()...); err != nil {
				return nil, nil, err
			}
		}
		reps, err := openPages(ctx, in, pace, url, []string{fmt.Sprintf("?name=c%d&report=1%s", i, o.every)})
		done()
		if err != nil {
			return nil, nil, fmt.Errorf("connect %d: %w", i+1, err)
		}
		fmt.Fprintf(os.Stderr, "webmeasure: connect %d: %v ms, phases %v\n", i+1, reps[0].ConnectMs, reps[0].PhasesMs)
		connectMs = append(connectMs, reps[0].ConnectMs)
		for k, v := range reps[0].PhasesMs {
			phases[k] = append(phases[k], v)
		}
	}
	phaseSummary := map[string]any{}
	for k, v := range phases {
		phaseSummary[k] = summary(v)
	}
	return connectMs, phaseSummary, nil
}

// offerPace keeps the pages' offers within what the server takes from one address
// (carriage.HubConfig: OfferBurst at once, then one every OfferEvery): every page here
// comes from 127.0.0.1, and a page whose offer is refused says so and gives up.
type offerPace struct {
	cfg    carriage.HubConfig
	tokens int
	last   time.Time // when the newest token was counted
}

// wait returns when one more offer may go.
func (p *offerPace) wait(ctx context.Context) {
	for p.tokens == 0 {
		next := p.last.Add(p.cfg.OfferEvery + 100*time.Millisecond) // a little slack for the server's clock
		select {
		case <-time.After(time.Until(next)):
		case <-ctx.Done():
			return
		}
		p.tokens, p.last = 1, time.Now()
	}
	p.tokens--
	if p.last.IsZero() || p.tokens == 0 {
		p.last = time.Now()
	}
}

// openPages opens one page per query, as fast as pace allows, and returns their reports,
// in order.
func openPages(ctx context.Context, b *cdp.Browser, pace *offerPace, url string, queries []string) ([]page, error) {
	sessions := make([]string, len(queries))
	for i, q := range queries {
		pace.wait(ctx)
		s, err := b.OpenPage(ctx)
		if err != nil {
			return nil, err
		}
		sessions[i] = s
		if err := b.Call(ctx, s, "Page.navigate", map[string]any{"url": url + q}, nil); err != nil {
			return nil, err
		}
	}
	byName := map[string]page{}
	for len(byName) < len(queries) {
		line, err := nextReport(ctx, b)
		if err != nil {
			return nil, fmt.Errorf("%d of %d pages reported: %w", len(byName), len(queries), err)
		}
		var p page
		if err := json.Unmarshal([]byte(line), &p); err != nil {
			return nil, fmt.Errorf("a report does not parse: %w", err)
		}
		if !p.Joined {
			return nil, fmt.Errorf("page %s never joined: %s", p.Name, p.Error)
		}
		byName[p.Name] = p
	}
	for _, s := range sessions {
		b.Call(ctx, s, "Page.close", nil, nil)
	}
	out := make([]page, len(queries))
	for i, q := range queries {
		name, _, _ := strings.Cut(strings.TrimPrefix(q, "?name="), "&")
		out[i] = byName[name]
	}
	return out, nil
}

// browserSummary condenses the pages' reports, each over played.
func browserSummary(reps []page, played time.Duration) map[string]any {
	var rtt, waits, waits90, fps []float64
	lost, residual, seenMin, snaps, inWorker, matched := 0, 0, -1, 0, 0, 0
	rateMin := -1.0 // the slowest page's snapshots a second over its report's span
	for _, r := range reps {
		if rate := float64(r.Snapshots) / played.Seconds(); rateMin < 0 || rate < rateMin {
			rateMin = rate
		}
		// Each page's median round trip, as tanksim's rtt_ms is the median of its bots'
		// every sample: the newest alone is one ping's luck.
		rtt = append(rtt, cmp.Or(r.RTTMedianMs, r.RTTMs))
		fps = append(fps, r.FPS)
		if r.InputWait != nil && r.InputWait.Samples > 0 {
			waits, waits90 = append(waits, r.InputWait.P50Ms), append(waits90, r.InputWait.P90Ms)
		}
		if r.Worker {
			inWorker++
		}
		if r.DrawnMatches != nil && *r.DrawnMatches {
			matched++
		}
		lost += r.SnapshotsLost
		residual += r.ResidualNonZero
		snaps += r.Snapshots
		if seenMin < 0 || r.PlayersSeen < seenMin {
			seenMin = r.PlayersSeen
		}
	}
	return map[string]any{"rtt_ms": summary(rtt), "snapshots": snaps, "snapshots_lost": lost,
		"residual_nonzero": residual, "players_seen_min": seenMin, "snapshots_per_s_min": math.Round(rateMin*10) / 10,
		// Each page's median and 90th percentile of its input waits (the server's reports),
		// summarised over the pages.
		"input_wait_p50_ms": summary(waits), "input_wait_p90_ms": summary(waits90), "fps": summary(fps),
		"pages_in_worker": inWorker, "drawn_matches": matched}
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

func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

// runTanksim plays bots native bots against addr for d (with extra flags: "-web" and the
// page's URL for bots over WebRTC) and returns tanksim's JSON report (nil when it failed).
func runTanksim(ctx context.Context, addr string, bots int, d time.Duration, extra ...string) map[string]any {
	args := append([]string{"-server", addr, "-bots", fmt.Sprint(bots), "-duration", d.String(), "-net", "none", "-json"}, extra...)
	out, err := exec.CommandContext(ctx, "bin/tanksim", args...).Output()
	if err != nil {
		fmt.Fprintln(os.Stderr, "webmeasure: tanksim:", err)
		return nil
	}
	var m map[string]any
	json.Unmarshal(out, &m)
	return m
}

// server is bin/tankserver running with -web on loopback.
type server struct {
	cmd     *exec.Cmd
	stopped sync.Once
	mu      sync.Mutex
	log     strings.Builder
	done    chan struct{}
}

// startServer runs bin/tankserver for players on free loopback ports and returns it, the
// page's URL and the game's UDP address.
func startServer(ctx context.Context, players int) (*server, string, string, error) {
	addr := "127.0.0.1:7871"
	// Every page comes from 127.0.0.1, and a closed page's peer lingers until the server
	// drops it: the per-address limit is raised past the pages of a run.
	cmd := exec.CommandContext(ctx, "bin/tankserver", "-addr", addr, "-web", "127.0.0.1:0", "-web-dir", "bin/web", "-web-per-address", "64",
		"-max-players", fmt.Sprint(max(players, 16)), "-metrics", metricsAddr)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, "", "", err
	}
	if err := cmd.Start(); err != nil {
		return nil, "", "", fmt.Errorf("bin/tankserver (make build web first): %w", err)
	}
	s := &server{cmd: cmd, done: make(chan struct{})}
	urls := make(chan string, 1)
	go s.read(stderr, urls)
	select {
	case url := <-urls:
		return s, url, addr, nil
	case <-s.done:
		return nil, "", "", fmt.Errorf("tankserver stopped: %s", s.String())
	case <-time.After(10 * time.Second):
		s.stop()
		return nil, "", "", fmt.Errorf("tankserver did not serve the page within 10 s: %s", s.String())
	}
}

var pageURL = regexp.MustCompile(`serving the browser client" url=(\S+)`)

// read keeps the server's log and sends the page's URL once it is served.
func (s *server) read(r io.Reader, urls chan<- string) {
	defer close(s.done)
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		s.mu.Lock()
		s.log.WriteString(sc.Text() + "\n")
		s.mu.Unlock()
		if m := pageURL.FindStringSubmatch(sc.Text()); m != nil {
			urls <- m[1]
		}
	}
}

func (s *server) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log.String()
}

// summary returns the server's closing lines: players dropped and what the browsers did.
func (s *server) summary() []string {
	var out []string
	for _, line := range strings.Split(s.String(), "\n") {
		if strings.Contains(line, `msg="server stopped"`) || strings.Contains(line, "msg=browsers") {
			out = append(out, line)
		}
	}
	return out
}

// stop interrupts the server and waits for its closing lines.
func (s *server) stop() {
	s.stopped.Do(func() {
		s.cmd.Process.Signal(os.Interrupt)
		select {
		case <-s.done:
		case <-time.After(10 * time.Second):
			s.cmd.Process.Kill()
		}
		s.cmd.Wait()
	})
}

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

// startChromium starts a headless Chromium with a fresh profile and extra flags; done ends
// it and removes the profile.
func startChromium(chromium string, extra ...string) (b *cdp.Browser, done func(), err error) {
	dir, err := os.MkdirTemp("", "webmeasure")
	if err != nil {
		return nil, nil, err
	}
	b, err = cdp.Start(chromium, nil, append(append(slices.Clone(cdp.Headless), "--user-data-dir="+dir), extra...)...)
	if err != nil {
		os.RemoveAll(dir)
		return nil, nil, err
	}
	return b, func() { b.Close(); os.RemoveAll(dir) }, nil
}

// nextReport returns the JSON of the next "tanknet-report" line any page logs, or an error
// when a page says it failed ("tankclient: ...") or ctx ends first.
func nextReport(ctx context.Context, b *cdp.Browser) (string, error) {
	for {
		select {
		case e := <-b.Events():
			text, ok := cdp.ConsoleText(e)
			if !ok {
				continue
			}
			if strings.HasPrefix(text, "tankclient: ") {
				return "", fmt.Errorf("a page says %s", text)
			}
			if line, ok := strings.CutPrefix(text, "tanknet-report "); ok {
				return line, nil
			}
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}
