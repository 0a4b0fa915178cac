package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	"tanknet/client"
	"tanknet/client/tabworker"
	"tanknet/linksim"
	"tanknet/wire"
)

// WebPage is what the browser client's URL asks for beyond its Config.
type WebPage struct {
	// ReportAfter, if positive, is when (seconds after the page joined its game) the page
	// logs one console line "tanknet-report {json}" (webReport); a page that never joins
	// logs one at once, saying so.
	ReportAfter int
	// Record keeps a client recording of the game (docs/RECORDINGS.md) and offers it as a
	// download when the game ends (Esc, or the server lost).
	Record bool
	// Worker runs the game (its connection, session and prediction clock) in a Web Worker
	// and has the page only draw it (package client/tabworker); worker=0 keeps everything on
	// the page's one thread, as before. The demo, the tour and frame-driven=1 stay on it.
	Worker bool
}

// webParams are the URL parameters the browser client reads in place of flags.
var webParams = []string{"name", "room", "net", "bot", "demo", "tour", "report", "record", "frame-driven", "worker"}

// parseWebParams returns the Config and page settings the URL query q asks for: name, room,
// net (a preset, as -net), bot=1 (drive as tanksim's bots do), demo=1 (the three-pane demo
// with its own server in the tab), tour=1, report=N, record=1 and frame-driven=1 (as
// -frame-driven), and worker=0 (the game on the page's own thread, not in a worker).
// serverAddr is the game's address
// as the KCP session names it (webServerAddr). Unknown parameters are refused, so a typo
// says so instead of being ignored.
func parseWebParams(q url.Values, serverAddr string) (Config, WebPage, error) {
	cfg := DefaultConfig()
	var page WebPage
	for k := range q {
		if !contains(webParams, k) {
			return cfg, page, fmt.Errorf("unknown URL parameter %q: want %s", k, strings.Join(webParams, ", "))
		}
	}
	cfg.Server = serverAddr
	if v := q.Get("name"); v != "" {
		cfg.Name = v
	}
	cfg.Room = q.Get("room")
	if err := wire.CheckRoomName(cfg.Room); err != nil {
		return cfg, page, fmt.Errorf("room=: %w", err) // the page's word for it, not -room's
	}
	if err := readWebSwitches(q, &cfg, &page); err != nil {
		return cfg, page, err
	}
	if v := q.Get("net"); v != "" {
		nf := linksim.NetFlags{Preset: v, Seed: cfg.Seed}
		path, err := nf.Path() // custom fails here too: a page sets none of its link flags
		if err != nil {
			// The command line's words would offer custom and its link flags, which a page
			// has no parameters for: say what the page takes.
			return cfg, page, fmt.Errorf("net=%s: want a network preset (%s) or up=PRESET,down=PRESET",
				v, strings.Join(linksim.PresetNames(), ", "))
		}
		cfg.Conditions, cfg.Net = path.AtClient(), nf.Name()
	}
	if v := q.Get("report"); v != "" {
		var err error
		if page.ReportAfter, err = strconv.Atoi(v); err != nil || page.ReportAfter < 1 {
			return cfg, page, fmt.Errorf("report=%q: want a whole number of seconds, at least 1", v)
		}
	}
	if cfg.Demo {
		if err := webDemo(&cfg, page); err != nil {
			return cfg, page, err
		}
	}
	return cfg, page, cfg.Validate()
}

// readWebSwitches reads the parameters that are on or off (1 or 0, true or false, or
// absent: off): demo, tour, record, bot and frame-driven; and worker (absent: on).
func readWebSwitches(q url.Values, cfg *Config, page *WebPage) error {
	on := func(k string) (bool, error) {
		switch q.Get(k) {
		case "", "0", "false":
			return false, nil
		case "1", "true":
			return true, nil
		}
		return false, fmt.Errorf("%s=%q: want 1 or 0", k, q.Get(k))
	}
	var err error
	if cfg.Demo, err = on("demo"); err != nil {
		return err
	}
	if cfg.Tour, err = on("tour"); err != nil {
		return err
	}
	if page.Record, err = on("record"); err != nil {
		return err
	}
	if cfg.FrameDriven, err = on("frame-driven"); err != nil {
		return err
	}
	bot, err := on("bot")
	if err != nil {
		return err
	}
	page.Worker = q.Get("worker") == "" // on unless said
	if !page.Worker {
		if page.Worker, err = on("worker"); err != nil {
			return err
		}
	}
	page.Worker = page.Worker && !cfg.Demo && !cfg.Tour && !cfg.FrameDriven
	if bot {
		cfg.Bot = 1
	}
	return nil
}

// webDemo sets cfg up for the three-pane demo in the tab, with its own server, and refuses
// what the demo cannot do there.
func webDemo(cfg *Config, page WebPage) error {
	cfg.Width, cfg.Height = demoWidth, demoHeight
	far, err := linksim.PathFor(cfg.FarNet, linksim.Overrides{})
	if err != nil {
		return err
	}
	cfg.FarConditions = far.AtClient()
	cfg.Server = "127.0.0.1:7777" // the tab's own in-memory network
	if cfg.Room != "" {
		return fmt.Errorf("room=%s: the demo plays in its own server", cfg.Room)
	}
	if page.Record {
		return errors.New("record=1 records one player's game against a server; the demo in a tab does not record")
	}
	return nil
}

// workerSpec returns what the page's worker plays for cfg and page: what
// tabworker.PageSpec reads from the same URL for itself (TestWorkerSpec holds them together).
func workerSpec(cfg Config, page WebPage) tabworker.Spec {
	return tabworker.Spec{Server: cfg.Server, Name: cfg.Name, Room: cfg.Room, DialTimeout: cfg.DialTimeout,
		Conditions: cfg.Conditions, Seed: cfg.Seed, Game: cfg.Game, Bot: cfg.Bot,
		Network: linksim.Describe(cfg.Net, cfg.Conditions), ReportAfter: time.Duration(page.ReportAfter) * time.Second}
}

// webServerAddr returns the address the KCP session over the carriage names the server by
// (tabworker.ServerAddr: the page's worker names it the same way).
func webServerAddr(host string) string { return tabworker.ServerAddr(host) }

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// webPhases are the steps of a page's connecting, in order, as the report's phases_ms names
// them: each is the moment (ms from navigation start) the page marked "tanknet-" + name with
// performance.mark. fetch: the wasm's last byte arrived; compile: it is compiled; start: Go's
// main runs; offer: the WebRTC offer was posted; answer: the server's answer came back; ice:
// ICE connected (orderedPhases); channel: the data channel opened; welcome: the server's
// Welcome arrived.
// A page whose game runs in its worker adds worker: the worker's program runs (the channel
// and the Welcome are then the worker's, and may come before start: the worker joins while
// the page's program still loads). drawn: the page's first frame of the game, the moment
// the player sees it.
var webPhases = []string{"fetch", "compile", "start", "worker", "offer", "answer", "ice", "channel", "welcome", "drawn"}

// orderedPhases puts ICE's moment, when the page marked one, at the latest at the channel's:
// a data channel opens only once ICE has connected, but the page hears of ICE in an event
// handler on its own thread, which may run after the worker has reported its channel open
// when that thread is busy (compiling the page's program on a loaded machine), and the
// steps would read out of order. A missing ICE moment stays missing.
func orderedPhases(phases map[string]float64) map[string]float64 {
	if channel, ok := phases["channel"]; ok {
		if ice, ok := phases["ice"]; ok && ice > channel {
			phases["ice"] = channel
		}
	}
	return phases
}

// webReport is the browser page's report: tanksim's per-client fields of the page's player
// (the demo's near player), how it travels, whether and how fast it joined, and in the demo
// every pane's player.
type webReport struct {
	client.Report
	Transport string             `json:"transport"` // "webrtc", or "in-tab" for the demo
	Joined    bool               `json:"joined"`    // false: the page never joined (Error says why)
	Error     string             `json:"error,omitempty"`
	ConnectMs float64            `json:"connect_ms"` // navigation start to the Welcome (demo: to its first frame)
	PhasesMs  map[string]float64 `json:"phases_ms,omitempty"`
	FPS       float64            `json:"fps"` // frames the page drew a second, lately (Ebitengine's ActualFPS)
	// Worker says the game ran in a Web Worker (WebPage.Worker), the page only drawing it.
	Worker bool `json:"worker"`
	// InputWait is how long the player's inputs waited in the server's buffer (its reports,
	// one per tick), as a window's frame report gives it.
	InputWait *client.WaitSummary `json:"input_wait,omitempty"`
	// DrawnMatches, for a page whose game ran in its worker, says whether the Game the page
	// drew (client.Mirror) reported, at the worker's report's frame, exactly what the
	// worker's did; absent when the page had drawn past that frame before the report came.
	DrawnMatches *bool           `json:"drawn_matches,omitempty"`
	Clients      []client.Report `json:"clients,omitempty"`
}

// webReportLine returns the console line "tanknet-report {json}" for games (the window's
// panes, the page's player first).
// waits, if not nil, are the player's input waits.
func webReportLine(transport string, connectMs, fps float64, phases map[string]float64, games []*client.Game, waits *client.WaitSummary) string {
	r := webReport{Transport: transport, Joined: true, ConnectMs: math.Round(connectMs), PhasesMs: phases, FPS: math.Round(fps*10) / 10, InputWait: waits}
	for i, g := range games {
		gr := g.Report()
		if i == 0 {
			r.Report = gr
		}
		if len(games) > 1 {
			r.Clients = append(r.Clients, gr)
		}
	}
	return reportLine(r)
}

// workerReportLine returns the console line of a page whose game ran in its worker: the
// worker's report wr, with what the page knows (its phases, its frame rate).
// drawn, if not nil, is the page's Game at the report's frame.
func workerReportLine(wr tabworker.Report, drawn *client.Game, connectMs, fps float64, phases map[string]float64) string {
	r := webReport{Report: wr.Report, Transport: "webrtc", Joined: true, ConnectMs: math.Round(connectMs), PhasesMs: phases,
		FPS: math.Round(fps*10) / 10, Worker: true, InputWait: &wr.InputWait}
	if drawn != nil {
		same := sameReport(drawn.Report(), wr.Report)
		r.DrawnMatches = &same
	}
	return reportLine(r)
}

// sameReport reports whether a and b say the same in their JSON, leaving out the link's
// count of bad datagrams (a replayed Game has no link to count them).
func sameReport(a, b client.Report) bool {
	a.BadDatagrams, b.BadDatagrams = 0, 0
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}

// neverJoinedLine returns the report of a page named name that never joined, and why.
func neverJoinedLine(name, transport string, err error, phases map[string]float64) string {
	r := webReport{Transport: transport, Error: err.Error(), PhasesMs: phases}
	r.Name = name
	return reportLine(r)
}

func reportLine(r webReport) string {
	b, err := json.Marshal(r)
	if err != nil {
		return "tanknet-report {}" // a Report is plain numbers and strings: it always encodes
	}
	return "tanknet-report " + string(b)
}
