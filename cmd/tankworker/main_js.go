//go:build js

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"syscall/js"
	"time"

	"tanknet/carriage"
	"tanknet/client"
	"tanknet/client/tabworker"
	"tanknet/netcode"
)

// channelGrace is how long, after a data channel failed to open, the worker waits for the
// page to hand it a fresh one (it signals afresh when its early answer was stale) before it
// asks for one ({type: "redial"}).
const channelGrace = 2 * time.Second

// redialWait bounds how long the worker waits for the channel it asked for: on a slow
// device the page's own program may still be loading (it answers once it runs, and its own
// waits bound the join from then).
const redialWait = time.Minute

// main runs in the worker (tankworker.js started it, with the page's URL parameters as its
// own, from which it reads what to play: tabworker.PageSpec). The page posts it, in any order,
// the data channel its signalling created ({type: "channel", dc}), what to play ({type:
// "start", spec}: tabworker.Spec as JSON; the worker's own reading of the URL comes first, and
// the page's is for a worker started without it), and then, while it plays, the controls held
// ({type: "controls", turn, throttle, fire, lagComp}), the tab's visibility ({type: "away",
// away}) and the end ({type: "quit"}). The worker posts back the phases of connecting it saw
// ({type: "phase", name, at}, at in ms since the Unix epoch as performance.timeOrigin + now),
// {type: "redial"} when its channel closed unused and no other came (openChannel) or, with
// what: "join", closed under its join (redial), {type: "joined"} or {type: "error", what,
// message}, the Game's recording as it is written ({type: "frames", n, data}, data an
// ArrayBuffer moved, not copied), its report ({type: "report", json}) and the end of the game
// ({type: "ended", message}). The program then stays, so what the page still posts finds it.
func main() {
	play()
	select {} // an exited Go program answers each message with an uncaught error
}

// play joins, plays and posts what the worker has to say, to the game's end.
func play() {
	self := js.Global()
	specs := make(chan tabworker.Spec, 1)
	channels := make(chan js.Value, 8)
	quit := make(chan struct{})
	var (
		w       *tabworker.Worker
		pending = tabworker.Controls{LagComp: true}
		away    bool
		quitted bool
	)
	onMessage := js.FuncOf(func(_ js.Value, args []js.Value) any {
		m := args[0]
		switch m.Get("type").String() {
		case "controls":
			c := tabworker.Controls{Input: netcode.Input{Turn: m.Get("turn").Float(), Throttle: m.Get("throttle").Float()}.Clamp(),
				Fire: m.Get("fire").Truthy(), LagComp: m.Get("lagComp").Truthy()}
			if w != nil {
				w.SetControls(c)
			} else {
				pending = c
			}
		case "away":
			away = m.Get("away").Truthy()
			if w != nil {
				w.SetAway(away)
			}
		case "channel":
			select {
			case channels <- m.Get("dc"):
			default:
			}
		case "start":
			var spec tabworker.Spec
			if err := json.Unmarshal([]byte(m.Get("spec").String()), &spec); err != nil {
				postError("join", fmt.Errorf("the page's spec does not parse: %w", err))
				break
			}
			select {
			case specs <- spec:
			default: // the worker read its own
			}
		case "quit":
			if !quitted {
				quitted = true
				close(quit)
			}
		}
		return nil
	})
	postPhase("worker")
	self.Call("tanknetTake", onMessage)
	// The worker joins as soon as its channel opens, while the page's own, larger program
	// may still be loading: it reads the page's parameters itself.
	loc := self.Get("location")
	if q, err := url.ParseQuery(strings.TrimPrefix(loc.Get("search").String(), "?")); err == nil && q.Get("name") != "" {
		if spec, err := tabworker.PageSpec(q, tabworker.ServerAddr(loc.Get("host").String())); err == nil {
			specs <- spec
		}
	}

	// The channel opens while the page's own program is still starting: it needs no spec.
	ctx := context.Background()
	conn, redialed, err := openChannel(ctx, channels)
	if err != nil {
		postError("join", err) // "nopath" when no channel ever opened (postError)
		return
	}
	postPhase("channel")
	spec := <-specs
	joined, err := tabworker.Join(ctx, conn, spec)
	var refused *client.RejectedError
	if err != nil && !redialed && conn.ClosedByPeer() && !errors.As(err, &refused) {
		// The channel was open but closed under the join: the server gave up on it while
		// it said nothing (the worker waited for the page's program to start, on a slow
		// phone) or during the handshake. The path works: one fresh channel.
		first := err
		if conn, err = redial(ctx, channels); err == nil {
			joined, err = tabworker.Join(ctx, conn, spec)
		}
		if err != nil { // in words that blame nothing the first channel showed working (postError)
			err = fmt.Errorf("%v (and on a fresh channel: %v)", first, err)
		}
	}
	if err != nil {
		postError("join", err)
		return
	}
	postPhase("welcome")
	post(map[string]any{"type": "joined"})
	joined.SetControls(pending)
	joined.SetAway(away)
	w = joined
	playCtx, stop := context.WithCancel(ctx)
	go func() { <-quit; stop() }()
	err = w.Run(playCtx, tabworker.Page{Frames: postFrames, Report: postReport})
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	post(map[string]any{"type": "ended", "message": msg})
}

// openChannel returns the carriage over the first data channel the page hands over that
// opens. One that fails is replaced by the next the page hands over within channelGrace.
// When none comes and the one that failed had closed before the worker took it
// (carriage.ErrChannelClosed: a worker slower to start than the server keeps a silent
// channel, on a slow phone), the worker asks the page to signal afresh ({type: "redial"}),
// once; the path worked. One that never opened is no path. It reports whether it asked.
func openChannel(ctx context.Context, channels <-chan js.Value) (conn *carriage.Conn, asked bool, err error) {
	dc := <-channels
	for {
		if conn, err = carriage.OverChannel(ctx, dc); err == nil {
			return conn, asked, nil
		}
		select {
		case dc = <-channels:
			continue
		case <-time.After(channelGrace):
		}
		if asked || !errors.Is(err, carriage.ErrChannelClosed) {
			return nil, asked, err // a channel that never opened: no path
		}
		asked = true
		post(map[string]any{"type": "redial"})
		select {
		case dc = <-channels:
		case <-time.After(redialWait):
			return nil, asked, err
		}
	}
}

// redial asks the page for a fresh channel ({type: "redial", what: "join"}) and returns the
// carriage over it once it opens: for a channel that closed under the worker's join.
func redial(ctx context.Context, channels <-chan js.Value) (*carriage.Conn, error) {
	post(map[string]any{"type": "redial", "what": "join"})
	select {
	case dc := <-channels:
		return carriage.OverChannel(ctx, dc)
	case <-time.After(redialWait):
		return nil, errors.New("the data channel closed while joining, and no fresh one came")
	}
}

// post posts msg to the page.
func post(msg map[string]any, transfer ...any) {
	if len(transfer) > 0 {
		js.Global().Call("postMessage", js.ValueOf(msg), js.ValueOf(transfer))
		return
	}
	js.Global().Call("postMessage", js.ValueOf(msg))
}

// postFrames hands the page the recording's bytes b, frames frames (0: the header), in a
// buffer of their own that is moved to it.
func postFrames(b []byte, frames int) {
	arr := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(arr, b)
	buf := arr.Get("buffer")
	post(map[string]any{"type": "frames", "n": frames, "data": buf}, buf)
}

func postReport(r tabworker.Report) {
	b, err := json.Marshal(r)
	if err != nil {
		return
	}
	post(map[string]any{"type": "report", "json": string(b)})
}

// postPhase tells the page a step of connecting happened now, on the clock both share.
func postPhase(name string) {
	perf := js.Global().Get("performance")
	at := perf.Get("timeOrigin").Float() + perf.Call("now").Float()
	post(map[string]any{"type": "phase", "name": name, "at": at})
}

// postError tells the page why the worker could not play: what is "nopath" when the data
// channel never opened, "join" otherwise.
func postError(what string, err error) {
	if errors.Is(err, carriage.ErrNoPath) {
		what = "nopath"
	}
	post(map[string]any{"type": "error", "what": what, "message": err.Error()})
}
