//go:build js

package carriage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"syscall/js"
)

// Conn is a client's end of the carriage: a net.PacketConn over one data channel to the
// server, here the browser's own RTCPeerConnection (through syscall/js: the page carries no
// WebRTC stack of its own). WriteTo sends to the server whatever the address; every
// datagram read says it came from the address last written to. Safe for concurrent use.
type Conn struct {
	connCore
	pc, dc js.Value
	once   sync.Once

	mu       sync.Mutex
	handlers []handler // the callbacks given to the browser, taken back by Close

	farClosed atomic.Bool // the data channel closed before Close: ClosedByPeer
}

// ClosedByPeer reports whether the data channel closed from the far end (the server gave up
// on it, or the browser closed it) before this side closed it: a fresh channel may do better
// where this one failed.
func (c *Conn) ClosedByPeer() bool { return c.farClosed.Load() }

// handler is one event handler property set on a browser object.
type handler struct {
	obj   js.Value
	event string
	fn    js.Func
}

// Dial opens a peer connection to the server whose offer endpoint is offerURL and returns
// once the data channel is open. It fails with ErrNoPath when ICE fails, with the server's
// message when it refuses the offer, and when ctx ends (ConnectTimeout if it has no
// deadline).
func Dial(ctx context.Context, offerURL string) (*Conn, error) {
	ctx, cancel := withConnectTimeout(ctx)
	defer cancel()
	ctor := js.Global().Get("RTCPeerConnection")
	if !ctor.Truthy() {
		return nil, errors.New("carriage: this browser has no WebRTC (RTCPeerConnection)")
	}
	c := &Conn{pc: ctor.New()}
	c.in = newInbox(inboxSize)
	if err := c.connect(ctx, offerURL); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// on sets obj's event handler property (onopen, onmessage, ...) to f.
func (c *Conn) on(obj js.Value, event string, f func(args []js.Value)) {
	fn := js.FuncOf(func(_ js.Value, args []js.Value) any { f(args); return nil })
	c.mu.Lock()
	c.handlers = append(c.handlers, handler{obj, event, fn})
	c.mu.Unlock()
	obj.Set(event, fn)
}

// closer returns a channel and a function that closes it once.
func closer() (chan struct{}, func()) {
	ch := make(chan struct{})
	var once sync.Once
	return ch, func() { once.Do(func() { close(ch) }) }
}

// signals are the moments of a peer connection its event handlers report.
type signals struct {
	opened, failed, gathered <-chan struct{}
}

// watch hands c.dc's datagrams to the inbox and reports the connection's moments; a moment
// already past when it is called (a connection the page started) is reported at once.
func (c *Conn) watch() signals {
	opened, open := closer()
	failed, fail := closer()
	gathered, gather := closer()
	c.on(c.dc, "onopen", func([]js.Value) { mark("channel"); open() })
	c.on(c.dc, "onmessage", func(args []js.Value) {
		msg := args[0].Get("data")
		if msg.Type() == js.TypeString {
			c.receive(nil, true)
			return
		}
		data := js.Global().Get("Uint8Array").New(msg)
		b := make([]byte, data.Length())
		js.CopyBytesToGo(b, data)
		c.receive(b, false)
	})
	c.on(c.dc, "onclose", func([]js.Value) { c.farClosed.Store(true); c.in.close() })
	if c.dc.Get("readyState").String() == "open" {
		open()
	}
	if !c.pc.Truthy() { // a worker's channel (OverChannel): its peer connection is the page's
		return signals{opened, failed, gathered}
	}
	iceState := func([]js.Value) {
		switch c.pc.Get("iceConnectionState").String() {
		case "connected":
			mark("ice")
		case "failed":
			fail()
			c.in.close()
		case "closed":
			c.in.close()
		}
	}
	c.on(c.pc, "oniceconnectionstatechange", iceState)
	gatherState := func([]js.Value) {
		if c.pc.Get("iceGatheringState").String() == "complete" {
			gather()
		}
	}
	c.on(c.pc, "onicegatheringstatechange", gatherState)
	iceState(nil)
	gatherState(nil)
	return signals{opened, failed, gathered}
}

// connect negotiates the data channel and waits for it to open.
func (c *Conn) connect(ctx context.Context, offerURL string) error {
	init := js.Global().Get("Object").New()
	init.Set("ordered", false) // unordered and never retransmitted: lost as over UDP
	init.Set("maxRetransmits", 0)
	c.dc = c.pc.Call("createDataChannel", Label, init)
	c.dc.Set("binaryType", "arraybuffer")
	sig := c.watch()
	offer, err := await(ctx, c.pc.Call("createOffer"))
	if err != nil {
		return fmt.Errorf("carriage: create offer: %w", err)
	}
	if _, err := await(ctx, c.pc.Call("setLocalDescription", offer)); err != nil {
		return fmt.Errorf("carriage: set offer: %w", err)
	}
	if c.pc.Get("iceGatheringState").String() != "complete" {
		select { // no trickle: the offer carries every candidate
		case <-sig.gathered:
		case <-ctx.Done():
			return fmt.Errorf("carriage: gathering candidates: %w", ctx.Err())
		}
	}
	sdp := c.pc.Get("localDescription").Get("sdp").String()
	mark("offer")
	answer, err := postOffer(ctx, offerURL, sessionDescription{Type: "offer", SDP: sdp})
	if err != nil {
		return err
	}
	mark("answer")
	desc := js.Global().Get("Object").New()
	desc.Set("type", answer.Type)
	desc.Set("sdp", answer.SDP)
	if _, err := await(ctx, c.pc.Call("setRemoteDescription", desc)); err != nil {
		return fmt.Errorf("carriage: the server's answer: %w", err)
	}
	return waitOpen(ctx, sig.opened, sig.failed)
}

// mark notes a step of connecting on the page's performance timeline, as "tanknet-" + step
// (the page's report reads them back as its phase breakdown).
func mark(step string) {
	if p := js.Global().Get("performance"); p.Truthy() && p.Get("mark").Truthy() {
		p.Call("mark", "tanknet-"+step)
	}
}

// await waits for a JavaScript promise and returns what it resolved to, or its rejection
// as an error, or ctx's error. The two callbacks are released once the promise settles
// (one that never settles keeps them: a browser must not call a released function).
func await(ctx context.Context, promise js.Value) (js.Value, error) {
	type outcome struct {
		v   js.Value
		err error
	}
	done := make(chan outcome, 1)
	var then, catch js.Func
	settle := func(o outcome) {
		done <- o
		then.Release()
		catch.Release()
	}
	then = js.FuncOf(func(_ js.Value, args []js.Value) any {
		settle(outcome{v: arg(args)})
		return nil
	})
	catch = js.FuncOf(func(_ js.Value, args []js.Value) any {
		settle(outcome{err: fmt.Errorf("%s", arg(args).Call("toString").String())})
		return nil
	})
	promise.Call("then", then, catch)
	select {
	case o := <-done:
		return o.v, o.err
	case <-ctx.Done():
		return js.Undefined(), ctx.Err()
	}
}

// postOffer sends offer to url with the page's fetch and returns the server's answer, or an
// error carrying the server's reason when it refused.
func postOffer(ctx context.Context, url string, offer sessionDescription) (sessionDescription, error) {
	body, err := json.Marshal(offer)
	if err != nil {
		return sessionDescription{}, fmt.Errorf("carriage: encode offer: %w", err)
	}
	headers := js.Global().Get("Object").New()
	headers.Set("Content-Type", "application/json")
	init := js.Global().Get("Object").New()
	init.Set("method", "POST")
	init.Set("headers", headers)
	init.Set("body", string(body))
	init.Set("cache", "no-store")
	resp, err := await(ctx, js.Global().Call("fetch", url, init))
	if err != nil {
		return sessionDescription{}, fmt.Errorf("%w (offer to %s: %w)", ErrNoServer, url, err)
	}
	text, err := await(ctx, resp.Call("text"))
	if err != nil {
		return sessionDescription{}, fmt.Errorf("carriage: answer from %s: %w", url, err)
	}
	got := text.String()
	if len(got) > MaxOfferBytes {
		got = got[:MaxOfferBytes]
	}
	status := resp.Get("status").Int()
	return answerFrom(url, status, fmt.Sprintf("%d %s", status, resp.Get("statusText").String()), []byte(got))
}

// arg returns args[0], or undefined.
func arg(args []js.Value) js.Value {
	if len(args) == 0 {
		return js.Undefined()
	}
	return args[0]
}

// WriteTo sends p to the server over the data channel (there is one peer: addr only names
// it for ReadFrom). Like UDP it drops p, reporting success, when the channel is not open or
// holds too much unsent.
func (c *Conn) WriteTo(p []byte, addr net.Addr) (int, error) {
	if c.in.isClosed() {
		return 0, net.ErrClosed
	}
	c.noteServer(addr)
	if c.dc.Get("readyState").String() != "open" || c.dc.Get("bufferedAmount").Int() > maxBuffered {
		return len(p), nil
	}
	data := js.Global().Get("Uint8Array").New(len(p))
	js.CopyBytesToJS(data, p)
	c.dc.Call("send", data)
	return len(p), nil
}

// Close closes the peer connection and releases the callbacks; it is safe to call more
// than once.
func (c *Conn) Close() error {
	c.once.Do(func() {
		c.in.close()
		if c.dc.Truthy() {
			c.dc.Call("close")
		}
		if c.pc.Truthy() {
			c.pc.Call("close")
		}
		c.mu.Lock()
		hs := c.handlers
		c.handlers = nil
		c.mu.Unlock()
		for _, h := range hs { // events after this find no handler, not a released one
			h.obj.Set(h.event, js.Null())
			h.fn.Release()
		}
	})
	return nil
}
