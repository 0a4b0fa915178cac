//go:build js

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"syscall/js"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"tanknet/carriage"
	"tanknet/client"
	"tanknet/client/tabworker"
	"tanknet/render"
)

// headerWait bounds how long the page waits, once the worker has joined, for the first bytes
// of its Game's recording.
const headerWait = 5 * time.Second

// runWorkerPage plays with the game in the page's worker (client/tabworker, cmd/tankworker):
// index.html started the worker (window.tanknetWorker) and handed it the data channel of its
// early signalling as it created it (a channel moves only then). The page keeps the peer
// connection and its signalling, tells the worker what to play, draws the worker's Game
// from the frames it hands over (render.RunMirror), and sends it the controls held.
func runWorkerPage(ctx context.Context, cfg Config, page WebPage, origin string, rep *webReporter, worker js.Value) error {
	showStatus("connecting to " + origin + " over WebRTC…")
	events := make(chan workerEvent, 8)
	started := make(chan struct{}) // closed when the worker's program says its first word
	mirror := client.NewMirror(time.Now())
	if page.Record {
		mirror.Keep()
	}
	origin0 := js.Global().Get("performance").Get("timeOrigin").Float()
	onMessage := js.FuncOf(func(_ js.Value, args []js.Value) any {
		m := args[0].Get("data")
		switch kind := m.Get("type").String(); kind {
		case "frames":
			data := js.Global().Get("Uint8Array").New(m.Get("data"))
			b := make([]byte, data.Length())
			js.CopyBytesToGo(b, data)
			mirror.Add(b, m.Get("n").Int())
		case "phase": // marked on the page's timeline, for its report's phases_ms
			markPhaseAt(m.Get("name").String(), m.Get("at").Float()-origin0)
			select { // its first phase is "worker", said as its program starts
			case <-started:
			default:
				close(started)
			}
		case "report":
			var wr tabworker.Report
			if err := json.Unmarshal([]byte(m.Get("json").String()), &wr); err != nil {
				fmt.Println("tankclient: the worker's report does not parse:", err)
				break
			}
			say := func(drawn *client.Game) {
				fmt.Println(workerReportLine(wr, drawn, rep.connectMs, ebiten.ActualFPS(), pagePhases()))
			}
			if !mirror.At(wr.Frames, say) { // said when the page's Game reaches the report's frame
				say(nil)
			}
		case "log":
			fmt.Println(m.Get("text").String())
		case "ended":
			why := m.Get("message").String()
			if why == "" {
				mirror.End(nil)
			} else {
				mirror.End(errors.New(why))
			}
			fallthrough
		default:
			select {
			case events <- workerEvent{kind: kind, what: m.Get("what").String(), message: m.Get("message").String()}:
			default:
			}
		}
		return nil
	})
	// For the page's life (the worker may speak last), and from what it said before the
	// program ran: index.html kept that.
	if take := js.Global().Get("tanknetFromWorker"); take.Type() == js.TypeFunction {
		take.Invoke(onMessage)
	} else {
		worker.Call("addEventListener", "message", onMessage)
	}
	post := func(msg map[string]any) { worker.Call("postMessage", js.ValueOf(msg)) }

	spec := workerSpec(cfg, page)
	b, err := json.Marshal(spec)
	if err != nil {
		return err
	}
	post(map[string]any{"type": "start", "spec": string(b)})

	pc, afresh, err := signalForWorker(ctx, origin, "tanknetSignal", "tanknetSignalTo")
	if err != nil {
		return err
	}
	asked := redials{afresh: afresh}
	unwatch := watchPath(pc, events)
	var ev workerEvent
	for {
		ev, err = awaitWorker(ctx, events, started, workerStartWait, carriage.ConnectTimeout+cfg.DialTimeout+time.Second)
		if err != nil {
			unwatch()
			return err
		}
		if ev.kind != "redial" {
			break
		}
		// The worker's channel closed, unused (the server had given up on a channel that
		// said nothing while the worker loaded) or under its join (it started just then).
		if !asked.answer(ev) {
			continue
		}
		unwatch()
		pc.Call("close")
		if pc, _, err = signalForWorker(ctx, origin, "tanknetSignalTo"); err != nil {
			return err
		}
		unwatch = watchPath(pc, events)
	}
	defer unwatch()
	switch {
	case ev.kind == "error" && ev.what == "nopath":
		return errors.New(joinWords(origin, carriage.ErrNoPath))
	case ev.kind != "joined":
		return fmt.Errorf("tanknet could not join: %s", ev.message)
	}
	rep.connectMs = pagePhases()["welcome"]
	for end := time.Now().Add(headerWait); ; time.Sleep(5 * time.Millisecond) {
		if _, err := mirror.Step(nil); err != nil {
			return fmt.Errorf("tanknet could not join: %w", err)
		}
		if mirror.Game() != nil {
			break
		}
		if time.Now().After(end) {
			return errors.New("tanknet could not join: the game's worker joined but handed over no game")
		}
	}
	showStatus("")
	opts := cfg.renderOptions(nil)
	opts.Bot = 0 // the worker drives
	var stopTouch func()
	opts.Touch, stopTouch = startTouch()
	defer stopTouch()
	defer gameOver() // before the controls are put away
	defer watchAway(func(away bool) { post(map[string]any{"type": "away", "away": away}) })()
	send := func(c render.Controls) {
		post(map[string]any{"type": "controls", "turn": c.Input.Turn, "throttle": c.Input.Throttle, "fire": c.Fire, "lagComp": c.LagComp})
	}
	err = render.RunMirror(ctx, mirror, send, opts)
	post(map[string]any{"type": "quit"})
	if page.Record {
		offerDownload("tanknet-"+cfg.Name+".tnrec", mirror.Recording())
	}
	return err
}

// signalForWorker returns the peer connection of the page's signalling for its worker once
// the server's answer is set, and whether it signalled afresh for it. It takes, in turn,
// what each of from names on the page gives: window.tanknetSignal, the early signalling's
// promise, and window.tanknetSignalTo, which signals afresh and hands the worker a new
// channel as it creates it; one of no use (carriage.ErrDialAfresh) passes to the next. It
// fails as carriage.DialEarly does, in the visitor's words.
func signalForWorker(ctx context.Context, origin string, from ...string) (pc js.Value, afresh bool, err error) {
	offerURL := origin + carriage.OfferPath
	ctx, cancel := context.WithTimeout(ctx, carriage.ConnectTimeout)
	defer cancel()
	for _, name := range from {
		early := js.Global().Get(name)
		if name == "tanknetSignalTo" && early.Type() == js.TypeFunction {
			early = early.Invoke()
		}
		if !early.Truthy() || early.Type() == js.TypeFunction {
			continue
		}
		got, err := carriage.EarlyAnswer(ctx, offerURL, early)
		switch {
		case errors.Is(err, carriage.ErrDialAfresh):
			continue
		case err != nil:
			return js.Undefined(), false, errors.New(joinWords(origin, err))
		}
		return got.Get("pc"), name == "tanknetSignalTo", nil
	}
	return js.Undefined(), false, errors.New(joinWords(origin, errors.New("the page could not set up a WebRTC connection for its worker")))
}

// watchPath tells events "nopath" when pc's ICE fails before it ever connected: no UDP path
// to the server. One that connected and then failed had a path (the server closed it, or
// the network went): the worker's channel closes, and it says so itself. A connection
// already connected (or disconnected since) when the watch begins counts as connected. The
// returned function stops watching.
func watchPath(pc js.Value, events chan<- workerEvent) (stop func()) {
	state := pc.Get("iceConnectionState").String()
	connected := state == "connected" || state == "completed" || state == "disconnected"
	onICE := js.FuncOf(func(js.Value, []js.Value) any {
		switch pc.Get("iceConnectionState").String() {
		case "connected", "completed":
			connected = true
		case "failed":
			if !connected {
				select {
				case events <- workerEvent{kind: "error", what: "nopath"}:
				default:
				}
			}
		}
		return nil
	})
	pc.Call("addEventListener", "iceconnectionstatechange", onICE)
	return func() {
		pc.Call("removeEventListener", "iceconnectionstatechange", onICE)
		onICE.Release()
	}
}

// markPhaseAt marks a step of connecting on the page's timeline at a moment already past
// (ms from navigation start): one the worker saw.
func markPhaseAt(name string, at float64) {
	p := js.Global().Get("performance")
	if !p.Get("mark").Truthy() {
		return
	}
	opts := js.Global().Get("Object").New()
	opts.Set("startTime", max(at, 0))
	p.Call("mark", "tanknet-"+name, opts)
}
