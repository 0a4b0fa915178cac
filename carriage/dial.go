package carriage

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/webrtc/v4"
)

// ErrNoPath reports a peer connection that could not reach the server: ICE found no
// working candidate pair (UDP blocked on the way, or the server's ICE port unreachable).
var ErrNoPath = errors.New("carriage: no UDP path to the server (ICE failed: is UDP blocked here?)")

// Conn is a client's end of the carriage: a net.PacketConn over one data channel to the
// server. WriteTo sends to the server whatever the address; every datagram read says it
// came from the address last written to (the one the KCP session above dialed). Safe for
// concurrent use.
type Conn struct {
	pc     *webrtc.PeerConnection
	dc     *webrtc.DataChannel
	in     *inbox
	server atomic.Pointer[net.Addr]
	once   sync.Once
}

// Dial opens a peer connection through api (nil: the default API; in a browser, its
// RTCPeerConnection) to the server whose offer endpoint is offerURL, and returns once the
// data channel is open. It fails with ErrNoPath when ICE fails, with the server's
// message when it refuses the offer, and when ctx ends (ConnectTimeout if it has no deadline).
func Dial(ctx context.Context, api *webrtc.API, offerURL string) (*Conn, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, ConnectTimeout)
		defer cancel()
	}
	if api == nil {
		api = webrtc.NewAPI()
	}
	pc, err := api.NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		return nil, fmt.Errorf("carriage: new peer connection: %w", err)
	}
	c := &Conn{pc: pc, in: newInbox(inboxSize)}
	if err := c.connect(ctx, offerURL); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// inboxSize is how many datagrams a reader may fall behind by before more are dropped:
// about a second of the game's traffic to one client.
const inboxSize = 512

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
	dc.OnMessage(func(m webrtc.DataChannelMessage) { c.in.put(m.Data, nil) })
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
	answer, err := postOffer(ctx, offerURL, *c.pc.LocalDescription())
	if err != nil {
		return err
	}
	if err := c.pc.SetRemoteDescription(answer); err != nil {
		return fmt.Errorf("carriage: the server's answer: %w", err)
	}
	select {
	case <-opened:
		return nil
	case <-failed:
		return ErrNoPath
	case <-ctx.Done():
		return fmt.Errorf("%w; gave up after waiting: %w", ErrNoPath, ctx.Err())
	}
}

// postOffer sends offer to url and returns the server's answer, or an error carrying the
// server's reason when it refused.
func postOffer(ctx context.Context, url string, offer webrtc.SessionDescription) (webrtc.SessionDescription, error) {
	body, err := json.Marshal(offer)
	if err != nil {
		return webrtc.SessionDescription{}, fmt.Errorf("carriage: encode offer: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return webrtc.SessionDescription{}, fmt.Errorf("carriage: offer to %s: %w", url, err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return webrtc.SessionDescription{}, fmt.Errorf("carriage: offer to %s: %w", url, err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(io.LimitReader(resp.Body, MaxOfferBytes))
	if err != nil {
		return webrtc.SessionDescription{}, fmt.Errorf("carriage: answer from %s: %w", url, err)
	}
	if resp.StatusCode != http.StatusOK {
		return webrtc.SessionDescription{}, fmt.Errorf("carriage: the server refused the offer: %s: %s", resp.Status, bytes.TrimSpace(got))
	}
	var answer webrtc.SessionDescription
	if err := json.Unmarshal(got, &answer); err != nil || answer.Type != webrtc.SDPTypeAnswer {
		return webrtc.SessionDescription{}, fmt.Errorf("carriage: answer from %s is not a session description of type answer", url)
	}
	return answer, nil
}

// ReadFrom reads the next datagram from the server.
func (c *Conn) ReadFrom(p []byte) (int, net.Addr, error) {
	n, _, err := c.in.read(p)
	if err != nil {
		return n, nil, err
	}
	return n, c.serverAddr(), nil
}

// serverAddr returns the address last written to, or 0.0.0.0:0 before any write.
func (c *Conn) serverAddr() net.Addr {
	if a := c.server.Load(); a != nil {
		return *a
	}
	return &net.UDPAddr{IP: net.IPv4zero}
}

// WriteTo sends p to the server over the data channel (there is one peer: addr only names
// it for ReadFrom). Like UDP it drops p, reporting success, when the channel holds too
// much unsent.
func (c *Conn) WriteTo(p []byte, addr net.Addr) (int, error) {
	if c.in.isClosed() {
		return 0, net.ErrClosed
	}
	if old := c.server.Load(); old == nil || *old != addr {
		c.server.Store(&addr)
	}
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

// LocalAddr returns a PeerAddr standing for this end (the server knows it by another).
func (c *Conn) LocalAddr() net.Addr { return newPeerAddr(netipUnspecified, 0) }

// SetDeadline sets the read deadline (writes never block).
func (c *Conn) SetDeadline(t time.Time) error { c.in.setDeadline(t); return nil }

// SetReadDeadline sets the read deadline; the zero time means none.
func (c *Conn) SetReadDeadline(t time.Time) error { c.in.setDeadline(t); return nil }

// SetWriteDeadline does nothing: writes never block.
func (c *Conn) SetWriteDeadline(time.Time) error { return nil }
