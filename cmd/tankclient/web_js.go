//go:build js

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/url"
	"strings"
	"syscall/js"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"tanknet/carriage"
	"tanknet/client"
	"tanknet/linksim"
	"tanknet/render"
)

// main is the browser client: the URL's parameters (parseWebParams) instead of flags, the
// game over a WebRTC data channel to the server that served the page (package carriage),
// or the three-pane demo with its own server in the tab. Messages go to the page's #status
// element and the console. Once the game has ended or could not start, the program stays
// (stayForListeners).
func main() {
	play()
	stayForListeners()
}

// stayForListeners keeps the program from exiting, for the rest of the page's life (the
// worker's program stays the same way, cmd/tankworker). What it registered with the browser
// (Ebitengine's key, mouse and touch listeners, the worker's messages) can still call it
// after the game: a Go program that has exited answers every such call with an uncaught
// "Go program has already exited".
func stayForListeners() { select {} }

// gameOver tells the page that the game has ended: from then on its resizes reach no
// listener (index.html), for Ebitengine would draw the ended game again and panic. Touch
// controls put away, a window resized: either fires one.
func gameOver() { js.Global().Set("tanknetGameOver", true) }

// play runs what the page's parameters ask for, to its end, and puts its error on the page.
func play() {
	defer gameOver()
	markPhase("start")
	loc := js.Global().Get("location")
	q, err := url.ParseQuery(strings.TrimPrefix(loc.Get("search").String(), "?"))
	if err != nil {
		showError(fmt.Errorf("the URL's parameters do not parse: %w", err))
		return
	}
	cfg, page, err := parseWebParams(q, webServerAddr(loc.Get("host").String()))
	if err != nil {
		showError(err)
		return
	}
	rep := webReporter{after: page.ReportAfter, transport: "webrtc"}
	cfg.OnFrame = rep.onFrame
	ctx := context.Background()
	if cfg.Demo {
		rep.transport = "in-tab" // the demo's server and players share the tab's own network
		rep.demo = true
		showStatus("starting the demo: its server and players run in this tab…")
		err = runDemo(ctx, cfg)
	} else if w := js.Global().Get("tanknetWorker"); page.Worker && w.Truthy() {
		rep.worker = true
		err = runWorkerPage(ctx, cfg, page, loc.Get("origin").String(), &rep, w)
	} else {
		err = runWeb(ctx, cfg, page, loc.Get("origin").String(), &rep)
	}
	if err != nil {
		if !rep.joined() && page.ReportAfter > 0 {
			fmt.Println(neverJoinedLine(cfg.Name, rep.transport, err, pagePhases()))
		}
		showError(err)
		return
	}
	showEnded(cfg.Demo)
}

// showEnded says on the page that the player quit (Esc), with a link to play again and
// one to the lobby, beside the recording's save link when there is one.
func showEnded(demo bool) {
	doc := js.Global().Get("document")
	s := doc.Call("getElementById", "status")
	if !s.Truthy() {
		return
	}
	link := func(text, href string) js.Value {
		a := doc.Call("createElement", "a")
		a.Set("href", href)
		a.Set("textContent", text)
		return a
	}
	text, again := "You left the game.", "Play again"
	if demo {
		text, again = "The demo has ended.", "Watch it again"
	}
	loc := js.Global().Get("location")
	s.Set("className", "")
	s.Set("textContent", text+" ")
	s.Call("append", link(again, loc.Get("href").String()))
	if !demo {
		s.Call("append", " · ", link("the lobby", loc.Get("pathname").String()))
	}
	if saveLink.Truthy() {
		s.Call("append", " · ", saveLink)
	}
}

// runWeb joins the server at origin over the carriage and plays in the page.
func runWeb(ctx context.Context, cfg Config, page WebPage, origin string, rep *webReporter) error {
	showStatus("connecting to " + origin + " over WebRTC…")
	dctx, cancel := context.WithTimeout(ctx, carriage.ConnectTimeout)
	conn, err := carriage.DialEarly(dctx, origin+carriage.OfferPath, js.Global().Get("tanknetSignal"))
	cancel()
	if err != nil {
		return errors.New(joinWords(origin, err))
	}
	cc, err := linksim.Condition(conn, cfg.Conditions, cfg.Seed)
	if err != nil {
		conn.Close()
		return err
	}
	sess, err := client.DialRoom(ctx, cfg.Server, cfg.Name, cfg.Room, cc, cfg.DialTimeout)
	if err != nil {
		return fmt.Errorf("tanknet could not join: %w", err)
	}
	rep.connectMs = markPhase("welcome")
	showStatus("")
	opts := cfg.renderOptions(cc)
	var stopTouch func()
	opts.Touch, stopTouch = startTouch()
	defer stopTouch()
	defer gameOver() // before the controls are put away
	opts.Away = new(render.AwaySwitch)
	defer watchAway(opts.Away.Set)()
	var rec bytes.Buffer
	if page.Record {
		opts.Record = []io.Writer{&rec}
	}
	err = render.Run(ctx, sess, opts)
	if page.Record {
		offerDownload("tanknet-"+cfg.Name+".tnrec", rec.Bytes())
	}
	return err
}

// offerDownload puts a link to data, named name, on the page and follows it, so the
// browser saves the file (a tab has no file system for the program to write to).
func offerDownload(name string, data []byte) {
	doc := js.Global().Get("document")
	arr := js.Global().Get("Uint8Array").New(len(data))
	js.CopyBytesToJS(arr, data)
	opts := js.Global().Get("Object").New()
	opts.Set("type", "application/octet-stream")
	blob := js.Global().Get("Blob").New(js.Global().Get("Array").New(arr), opts)
	a := doc.Call("createElement", "a")
	a.Set("href", js.Global().Get("URL").Call("createObjectURL", blob))
	a.Set("download", name)
	a.Set("textContent", fmt.Sprintf("Save the recording %s (%d KB)", name, (len(data)+1023)/1024))
	saveLink = a // shown with what ended the game (showEnded, showError)
	fmt.Printf("tankclient: recording %s, %d bytes, offered as a download\n", name, len(data))
	a.Call("click")
}

// webReporter logs the page's report once, ReportAfter seconds after the page joined.
type webReporter struct {
	after     int // seconds; 0: never
	transport string
	demo      bool    // the demo's first frame is its join, and clears its banner
	connectMs float64 // navigation start to Welcome; for the demo, to its first frame
	done      bool
	waits     client.WaitLog // the player's input waits, noted every frame
	worker    bool           // the game runs in the page's worker, which reports (worker_js.go)
	drawn     bool           // the first frame is marked
}

// joined reports whether the page has joined its game.
func (r *webReporter) joined() bool { return r.connectMs > 0 }

// onFrame is the window's per-frame hook (render.Options.OnFrame).
func (r *webReporter) onFrame(_ time.Time, games []*client.Game) {
	if !r.drawn {
		r.drawn = true
		markPhase("drawn")
	}
	if r.connectMs == 0 {
		r.connectMs = pageMillis()
		if r.demo {
			showStatus("") // the demo runs: "starting the demo…" has done its work
		}
	}
	if r.worker {
		return
	}
	if len(games) > 0 {
		r.waits.Note(games[0])
	}
	if r.done || r.after == 0 || pageMillis() < r.connectMs+float64(r.after)*1000 {
		return
	}
	r.done = true
	var waits *client.WaitSummary
	if !r.demo {
		s := r.waits.Summary()
		waits = &s
	}
	fmt.Println(webReportLine(r.transport, r.connectMs, ebiten.ActualFPS(), pagePhases(), games, waits))
}

// markPhase marks a step of connecting on the page's performance timeline (webPhases) and
// returns when it was, ms from navigation start.
func markPhase(name string) float64 {
	if p := js.Global().Get("performance"); p.Get("mark").Truthy() {
		if m := p.Call("mark", "tanknet-"+name); m.Truthy() {
			return m.Get("startTime").Float()
		}
	}
	return pageMillis()
}

// pagePhases returns when each step of connecting happened (webPhases), ms from navigation
// start, as the page and the carriage marked them; steps not reached are absent.
func pagePhases() map[string]float64 {
	perf := js.Global().Get("performance")
	out := map[string]float64{}
	if !perf.Get("getEntriesByName").Truthy() {
		return out
	}
	for _, name := range webPhases {
		if marks := perf.Call("getEntriesByName", "tanknet-"+name); marks.Length() > 0 {
			out[name] = math.Round(marks.Index(0).Get("startTime").Float())
		}
	}
	return orderedPhases(out)
}

// pageMillis returns the milliseconds since navigation started.
func pageMillis() float64 { return js.Global().Get("performance").Call("now").Float() }

// showStatus puts text in the page's status line ("" hides it).
func showStatus(text string) {
	if s := js.Global().Get("document").Call("getElementById", "status"); s.Truthy() {
		s.Set("className", "")
		s.Set("textContent", text)
	}
}

// saveLink is the recording's download link once offerDownload has made it: the page shows
// it beside what ended the game (showEnded, showError), in case the browser blocked the
// download.
var saveLink js.Value

// showError puts err on the page, plainly, and in the console (with the time since the
// page started).
func showError(err error) {
	fmt.Printf("tankclient: %s (%.0f ms after the page started)\n", strings.ReplaceAll(err.Error(), "\n", " "), pageMillis())
	if s := js.Global().Get("document").Call("getElementById", "status"); s.Truthy() {
		s.Set("className", "error")
		s.Set("textContent", err.Error())
		if saveLink.Truthy() {
			s.Call("append", " · ", saveLink)
		}
	}
}
