//go:build js

package carriage

import (
	"context"
	"errors"
	"fmt"
	"syscall/js"
	"time"
)

// earlyFresh is how old an early answer may be when the program takes its connection over:
// past it the server may have dropped the peer for not joining (HubConfig.JoinTimeout, 15 s
// by default), so the program dials afresh rather than start a game on it.
const earlyFresh = 10 * time.Second

// DialEarly is Dial for a page whose script began signalling while the program was still
// downloading and compiling (cmd/tankclient/web/index.html): the peer connection, its offer
// and the server's answer need no Go, so they overlap the wasm's load. early is the promise
// that script made. It resolves to {pc, dc, answeredAt} once the answer is set, to {pc,
// status, statusText, body} when the server refused the offer, or to {pc, unreachable} when
// no server answered. DialEarly takes the connection over and waits for the channel to
// open; with early undefined, a stale answer or a connection already closed, it dials afresh.
func DialEarly(ctx context.Context, offerURL string, early js.Value) (*Conn, error) {
	if !early.Truthy() {
		return Dial(ctx, offerURL)
	}
	ctx, cancel := withConnectTimeout(ctx)
	defer cancel()
	got, err := EarlyAnswer(ctx, offerURL, early)
	switch {
	case errors.Is(err, ErrDialAfresh):
		return Dial(ctx, offerURL)
	case err != nil:
		return nil, err
	}
	pc := got.Get("pc")
	c := &Conn{pc: pc, dc: got.Get("dc")}
	c.in = newInbox(inboxSize)
	sig := c.watch()
	if err := waitOpen(ctx, sig.opened, sig.failed); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// ErrDialAfresh is EarlyAnswer's word that the page's early signalling is of no use (the
// script failed, its answer is stale, its connection closed): dial afresh.
var ErrDialAfresh = errors.New("carriage: the early connection is of no use: dial afresh")

// EarlyAnswer waits for the page's early signalling (DialEarly's early) and returns what it
// resolved to, {pc, dc, answeredAt}, once the server's answer is set and fresh. It fails
// with ErrNoServer or the server's refusal as Dial does (closing the peer connection), and
// with ErrDialAfresh when the early connection cannot be used (for a connection whose data
// channel went to a worker at its creation, which the worker joins on as soon as it opens,
// only when ICE failed or closed). A page whose channel is in a worker waits for the answer
// with it.
func EarlyAnswer(ctx context.Context, offerURL string, early js.Value) (js.Value, error) {
	got, err := await(ctx, early)
	if err != nil || !got.Truthy() {
		return js.Undefined(), ErrDialAfresh // the script itself failed: Go's own way may still work
	}
	pc := got.Get("pc")
	switch {
	case got.Get("unreachable").Truthy():
		pc.Call("close")
		return js.Undefined(), fmt.Errorf("%w (offer to %s: %s)", ErrNoServer, offerURL, got.Get("unreachable").String())
	case got.Get("status").Truthy():
		pc.Call("close")
		body := got.Get("body").String()
		if len(body) > MaxOfferBytes {
			body = body[:MaxOfferBytes]
		}
		_, err := answerFrom(offerURL, got.Get("status").Int(), fmt.Sprintf("%d %s", got.Get("status").Int(), got.Get("statusText").String()), []byte(body))
		return js.Undefined(), err
	}
	// An answer grows stale while the page's program loads (the server drops a peer that does
	// not join in time); a channel that went to a worker (no dc here) is the worker's to
	// join on, which it does as soon as it opens, and only ICE says it is no use.
	age := time.Duration(js.Global().Get("performance").Call("now").Float()-got.Get("answeredAt").Float()) * time.Millisecond
	stale, state, ice := false, "", pc.Get("iceConnectionState").String()
	if dc := got.Get("dc"); dc.Truthy() {
		stale, state = age > earlyFresh, dc.Get("readyState").String()
	}
	if stale || state == "closing" || state == "closed" || ice == "failed" || ice == "closed" {
		pc.Call("close")
		return js.Undefined(), ErrDialAfresh
	}
	return got, nil
}

// OverChannel is the carriage's Conn in a dedicated Worker over dc, a data channel the page
// created and transferred to the worker at once (postMessage(dc, [dc]): a channel moves only
// in the task that made it). The peer connection and its signalling stay with the page,
// which says when ICE fails; here the channel's own events are the connection's. It returns
// once dc is open, or fails with ErrNoPath when ctx ends first (ConnectTimeout if it has no
// deadline) or the channel closes, and at once with ErrChannelClosed when dc has closed
// already (its close was said before anyone here listened).
func OverChannel(ctx context.Context, dc js.Value) (*Conn, error) {
	if state := dc.Get("readyState").String(); state == "closing" || state == "closed" {
		return nil, ErrChannelClosed
	}
	ctx, cancel := withConnectTimeout(ctx)
	defer cancel()
	dc.Set("binaryType", "arraybuffer")
	c := &Conn{pc: js.Undefined(), dc: dc}
	c.in = newInbox(inboxSize)
	sig := c.watch()
	closed, closeNow := closer()
	c.on(dc, "onclose", func([]js.Value) { c.farClosed.Store(true); c.in.close(); closeNow() })
	if err := waitOpen(ctx, sig.opened, closed); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}
