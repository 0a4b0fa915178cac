//go:build !js

package carriage

import (
	"context"
	"fmt"
	"net"
	"sync"

	"github.com/pion/webrtc/v4"
)

// Conn is a client's end of the carriage: a net.PacketConn over one data channel to the
// server. WriteTo sends to the server whatever the address; every datagram read says it
// came from the address last written to (the one the KCP session above dialed). Safe for
// concurrent use. In a browser (js/wasm) the same type rides the browser's own
// RTCPeerConnection (dial_js.go).
type Conn struct {
	connCore
	pc   *webrtc.PeerConnection
	dc   *webrtc.DataChannel
	once sync.Once
}

// Dial opens a peer connection with pion's default API to the server whose offer endpoint
// is offerURL, and returns once the data channel is open. It fails with ErrNoPath when ICE
// fails, with the server's message when it refuses the offer, and when ctx ends
// (ConnectTimeout if it has no deadline). The browser build has the same Dial (dial_js.go);
// a Dialer chooses pion's API as well.
func Dial(ctx context.Context, offerURL string) (*Conn, error) {
	return Dialer{}.Dial(ctx, offerURL)
}

// Dialer dials as Dial does, through a pion API of its choosing: LoopbackAPI in tests, so
// both ends pair on loopback only. The browser build has none: the browser's WebRTC stack
// is the only one there.
type Dialer struct {
	API *webrtc.API // nil: pion's default API
}

// Dial is Dial through d.API.
func (d Dialer) Dial(ctx context.Context, offerURL string) (*Conn, error) {
	ctx, cancel := withConnectTimeout(ctx)
	defer cancel()
	api := d.API
	if api == nil {
		api = webrtc.NewAPI()
	}
	pc, err := api.NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		return nil, fmt.Errorf("carriage: new peer connection: %w", err)
	}
	c := &Conn{pc: pc}
	c.in = newInbox(inboxSize)
	if err := c.connect(ctx, offerURL); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// channelInit is how Dial opens the data channel: unordered and never retransmitted, so a
// lost datagram is lost as over UDP and KCP above repairs what needs repairing.
func channelInit() *webrtc.DataChannelInit {
	ordered := false
	var retransmits uint16
	return &webrtc.DataChannelInit{Ordered: &ordered, MaxRetransmits: &retransmits}
}

// connect negotiates the data channel and waits for it to open.
func (c *Conn) connect(ctx context.Context, offerURL string) error {
	dc, err := c.pc.CreateDataChannel(Label, channelInit())
	if err != nil {
		return fmt.Errorf("carriage: data channel: %w", err)
	}
	c.dc = dc
	opened := make(chan struct{})
	var openOnce sync.Once
	dc.OnOpen(func() { openOnce.Do(func() { close(opened) }) })
	dc.OnMessage(func(m webrtc.DataChannelMessage) { c.receive(m.Data, m.IsString) }) // pion hands over a copy
	dc.OnClose(c.in.close)
	failed := make(chan struct{})
	var failOnce sync.Once
	c.pc.OnConnectionStateChange(func(s webrtc.PeerConnectionState) {
		if s == webrtc.PeerConnectionStateFailed {
			failOnce.Do(func() { close(failed) })
		}
		if s == webrtc.PeerConnectionStateFailed || s == webrtc.PeerConnectionStateClosed {
			c.in.close()
		}
	})
	offer, err := c.pc.CreateOffer(nil)
	if err != nil {
		return fmt.Errorf("carriage: create offer: %w", err)
	}
	gathered := webrtc.GatheringCompletePromise(c.pc)
	if err := c.pc.SetLocalDescription(offer); err != nil {
		return fmt.Errorf("carriage: set offer: %w", err)
	}
	select { // no trickle: the offer carries every candidate
	case <-gathered:
	case <-ctx.Done():
		return fmt.Errorf("carriage: gathering candidates: %w", ctx.Err())
	}
	answer, err := postOffer(ctx, offerURL, sessionDescription{Type: "offer", SDP: c.pc.LocalDescription().SDP})
	if err != nil {
		return err
	}
	if err := c.pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeAnswer, SDP: answer.SDP}); err != nil {
		return fmt.Errorf("carriage: the server's answer: %w", err)
	}
	return waitOpen(ctx, opened, failed)
}

// WriteTo sends p to the server over the data channel (there is one peer: addr only names
// it for ReadFrom). Like UDP it drops p, reporting success, when the channel holds too
// much unsent.
func (c *Conn) WriteTo(p []byte, addr net.Addr) (int, error) {
	if c.in.isClosed() {
		return 0, net.ErrClosed
	}
	c.noteServer(addr)
	if c.dc.BufferedAmount() > maxBuffered {
		return len(p), nil
	}
	if err := c.dc.Send(p); err != nil {
		return 0, fmt.Errorf("carriage: send: %w", err)
	}
	return len(p), nil
}

// Close closes the peer connection; it is safe to call more than once.
func (c *Conn) Close() error {
	c.once.Do(func() {
		c.in.close()
		c.pc.Close()
	})
	return nil
}
