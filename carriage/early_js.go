//go:build js

package carriage

import (
	"context"
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
	got, err := await(ctx, early)
	if err != nil || !got.Truthy() {
		return Dial(ctx, offerURL) // the script itself failed: Go's own way may still work
	}
	pc := got.Get("pc")
	switch {
	case got.Get("unreachable").Truthy():
		pc.Call("close")
		return nil, fmt.Errorf("%w (offer to %s: %s)", ErrNoServer, offerURL, got.Get("unreachable").String())
	case got.Get("status").Truthy():
		pc.Call("close")
		body := got.Get("body").String()
		if len(body) > MaxOfferBytes {
			body = body[:MaxOfferBytes]
		}
		_, err := answerFrom(offerURL, got.Get("status").Int(), fmt.Sprintf("%d %s", got.Get("status").Int(), got.Get("statusText").String()), []byte(body))
		return nil, err
	}
	age := time.Duration(js.Global().Get("performance").Call("now").Float()-got.Get("answeredAt").Float()) * time.Millisecond
	state, ice := got.Get("dc").Get("readyState").String(), pc.Get("iceConnectionState").String()
	if age > earlyFresh || state == "closing" || state == "closed" || ice == "failed" || ice == "closed" {
		pc.Call("close")
		return Dial(ctx, offerURL)
	}
	c := &Conn{pc: pc, dc: got.Get("dc")}
	c.in = newInbox(inboxSize)
	sig := c.watch()
	if err := waitOpen(ctx, sig.opened, sig.failed); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}
