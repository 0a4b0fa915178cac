package discovery

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"time"
)

// BrowseConfig is how a client looks for servers.
type BrowseConfig struct {
	// Targets are the addresses asked; empty: DefaultTargets (every broadcast address of
	// this host and its loopback).
	Targets []netip.Addr
	// Ports are asked at each target; empty: the PortCount ports from FirstPort.
	Ports []uint16
	// Refresh is how often Browse asks again: a round starts every Refresh.
	Refresh time.Duration
	// Wait is how long a round collects answers, at most Refresh. The request goes again
	// halfway through it, so one lost datagram does not hide a server.
	Wait time.Duration
	// RequestSize is the size in bytes (MinRequest to MaxDatagram) of the requests sent to
	// every target. An answer is no longer than its request, so it may leave rooms out: a
	// server whose answer does is asked again at once, directly, with MaxDatagram bytes.
	// Small broadcasts with a direct follow-up put the fewest bytes on a shared network.
	RequestSize int
	// Local is the UDP address to ask from; empty: any port on every IPv4 interface.
	Local string
}

// DefaultBrowseConfig returns a round every 2 s that waits 1 s for answers, with 256-byte
// requests (room in the answer for a dozen rooms).
func DefaultBrowseConfig() BrowseConfig {
	return BrowseConfig{Refresh: 2 * time.Second, Wait: time.Second, RequestSize: 256}
}

// Validate reports the first setting that cannot work.
func (c BrowseConfig) Validate() error {
	switch {
	case c.Refresh <= 0 || c.Wait <= 0 || c.Wait > c.Refresh:
		return fmt.Errorf("discovery: wait %v and refresh %v: want 0 < wait <= refresh", c.Wait, c.Refresh)
	case c.RequestSize < MinRequest || c.RequestSize > MaxDatagram:
		return fmt.Errorf("discovery: request size %d, want %d to %d bytes", c.RequestSize, MinRequest, MaxDatagram)
	}
	return nil
}

// Discover asks once (one round of cfg.Wait) and returns the servers that answered, or an
// error if the socket cannot be opened or no request could be sent.
func Discover(ctx context.Context, cfg BrowseConfig) ([]Server, error) {
	b, err := openBrowser(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer b.close()
	return b.round(ctx)
}

// Browse asks every cfg.Refresh until ctx ends and calls update after each round with the
// servers that answered in it: a server that stops answering leaves the list at the end of
// the first round it misses, at most Refresh + Wait after it stopped. It returns nil when
// ctx ends, or an error if the socket cannot be opened or no request could be sent.
// update runs on Browse's goroutine.
func Browse(ctx context.Context, cfg BrowseConfig, update func([]Server)) error {
	b, err := openBrowser(ctx, cfg)
	if err != nil {
		return err
	}
	defer b.close()
	for {
		start := time.Now()
		list, err := b.round(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			return err
		}
		update(list)
		t := time.NewTimer(cfg.Refresh - time.Since(start))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		}
	}
}

// browser is one client socket and where it asks.
type browser struct {
	cfg  BrowseConfig
	pc   net.PacketConn
	to   []net.Addr
	stop func() bool
	buf  []byte
}

func openBrowser(ctx context.Context, cfg BrowseConfig) (*browser, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	targets, ports := cfg.Targets, cfg.Ports
	if len(targets) == 0 {
		targets = DefaultTargets()
	}
	if len(ports) == 0 {
		for p := FirstPort; p < FirstPort+PortCount; p++ {
			ports = append(ports, uint16(p))
		}
	}
	local := cfg.Local
	if local == "" {
		local = "0.0.0.0:0"
	}
	pc, err := net.ListenPacket("udp", local)
	if err != nil {
		return nil, fmt.Errorf("discovery: cannot open a UDP socket on %s: %w", local, err)
	}
	b := &browser{cfg: cfg, pc: pc, buf: make([]byte, MaxDatagram)}
	for _, t := range targets {
		for _, p := range ports {
			b.to = append(b.to, net.UDPAddrFromAddrPort(netip.AddrPortFrom(t, p)))
		}
	}
	b.stop = context.AfterFunc(ctx, func() { pc.Close() })
	return b, nil
}

func (b *browser) close() {
	b.stop()
	b.pc.Close()
}

// send sends req to every target and port; it fails only when not one send went out.
func (b *browser) send(req []byte) error {
	var first error
	sent := 0
	for _, to := range b.to {
		if _, err := b.pc.WriteTo(req, to); err != nil {
			first = firstError(first, err)
			continue
		}
		sent++
	}
	if sent == 0 {
		return fmt.Errorf("discovery: no request could be sent: %w", first)
	}
	return nil
}

// firstError returns first, or err if there was none.
func firstError(first, err error) error {
	if first != nil {
		return first
	}
	return err
}

// round sends a request, again halfway through Wait, and collects the answers that carry
// its nonce until Wait has passed.
func (b *browser) round(ctx context.Context) ([]Server, error) {
	nonce := newNonce()
	req, err := AppendRequest(nil, nonce, b.cfg.RequestSize)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	if err := b.send(req); err != nil {
		return nil, err
	}
	servers := map[uint64]*found{}
	resent := false
	b.pc.SetReadDeadline(start.Add(b.cfg.Wait / 2))
	for {
		n, from, err := b.pc.ReadFrom(b.buf)
		var timeout net.Error
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case errors.As(err, &timeout) && timeout.Timeout() && !resent:
			resent = true
			b.send(req) // the first send worked: a failure now only costs the repeat
			b.pc.SetReadDeadline(start.Add(b.cfg.Wait))
			continue
		case errors.As(err, &timeout) && timeout.Timeout():
			return list(servers), nil
		case err != nil:
			return nil, fmt.Errorf("discovery: read: %w", err)
		}
		a, err := ParseAnswer(b.buf[:n])
		src, ok := from.(*net.UDPAddr)
		if err != nil || !ok || a.Nonce != nonce {
			continue
		}
		if merge(servers, a, src.AddrPort(), time.Since(start)) && len(req) < MaxDatagram {
			b.askAll(nonce, from)
		}
	}
}

// askAll asks the server at to again, directly, with a request of MaxDatagram bytes: its
// answer to the smaller request left rooms out.
func (b *browser) askAll(nonce uint32, to net.Addr) {
	full, _ := AppendRequest(nil, nonce, MaxDatagram)
	b.pc.WriteTo(full, to) // lost or refused: the round keeps the shorter list
}

// newNonce draws a request's nonce, so answers to an earlier round (or forged ones from
// off the path) are not taken for this one's.
func newNonce() uint32 {
	var b [4]byte
	rand.Read(b[:])
	return binary.LittleEndian.Uint32(b[:])
}
