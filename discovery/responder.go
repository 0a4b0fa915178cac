package discovery

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"strconv"
	"sync/atomic"
	"time"
)

// The ports servers answer on unless told otherwise: each takes the first free one, so up
// to PortCount servers on one host are all found by a client that asks every port.
const (
	FirstPort = 47770
	PortCount = 10
)

// Listen opens a discovery socket on host (empty, 0.0.0.0 or ::: every IPv4 interface,
// where broadcasts arrive; an IPv6 address: that address, for unicast requests): on port,
// or when port is 0 on the first free port from FirstPort up.
func Listen(host string, port int) (net.PacketConn, error) {
	network := "udp4"
	if ip, err := netip.ParseAddr(host); err == nil && ip.IsUnspecified() {
		host = ""
	} else if err == nil && ip.Unmap().Is6() {
		network = "udp6"
	}
	if port != 0 {
		pc, err := net.ListenPacket(network, net.JoinHostPort(host, strconv.Itoa(port)))
		if err != nil {
			return nil, fmt.Errorf("discovery: listen: %w", err)
		}
		return pc, nil
	}
	var first error
	for p := FirstPort; p < FirstPort+PortCount; p++ {
		pc, err := net.ListenPacket(network, net.JoinHostPort(host, strconv.Itoa(p)))
		if err == nil {
			return pc, nil
		}
		if first == nil {
			first = err
		}
	}
	return nil, fmt.Errorf("discovery: no free port in %d-%d on %q (%v)", FirstPort, FirstPort+PortCount-1, host, first)
}

// ResponderConfig is how a Responder answers.
type ResponderConfig struct {
	// ServerID goes in every answer, so a client that hears the server through several
	// addresses lists it once: draw it at random when the server starts.
	ServerID uint64
	Limits   Limits
	// SummaryEvery is how long one summary answers every request: the server is asked for
	// its figures at most once in this period. Zero asks for every answer.
	SummaryEvery time.Duration
	// Logger notes requests that could not be answered (at debug level); nil: none.
	Logger *slog.Logger
}

// DefaultResponderConfig returns the documented limits, a summary reused for half a second
// (a lobby refreshes every two), and ServerID zero: set it.
func DefaultResponderConfig() ResponderConfig {
	return ResponderConfig{Limits: DefaultLimits(), SummaryEvery: 500 * time.Millisecond}
}

// ResponderStats counts what a Responder did with the datagrams it read.
type ResponderStats struct {
	Answered  uint64 // requests answered (the answer handed to the socket)
	Limited   uint64 // requests refused by the rate limits
	Malformed uint64 // datagrams that were not a request it answers: other games', short ones, answers, other versions
}

// Responder answers discovery requests on one socket. Serve runs it; Stats may be read at
// any time from any goroutine.
type Responder struct {
	pc        net.PacketConn
	cfg       ResponderConfig
	summarize func() Answer
	answered  atomic.Uint64
	limited   atomic.Uint64
	malformed atomic.Uint64
}

// NewResponder returns a Responder on pc that answers with what summarize returns (its
// Nonce and ServerID are set for each answer). summarize is called from Serve's goroutine.
func NewResponder(pc net.PacketConn, cfg ResponderConfig, summarize func() Answer) (*Responder, error) {
	if err := cfg.Limits.Validate(); err != nil {
		return nil, err
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Responder{pc: pc, cfg: cfg, summarize: summarize}, nil
}

// Addr returns the socket's address.
func (r *Responder) Addr() net.Addr { return r.pc.LocalAddr() }

// Stats returns the counts so far.
func (r *Responder) Stats() ResponderStats {
	return ResponderStats{Answered: r.answered.Load(), Limited: r.limited.Load(), Malformed: r.malformed.Load()}
}

// Serve answers requests until ctx ends and returns nil; it returns the error if reading
// the socket fails otherwise. Either way it closes the socket.
func (r *Responder) Serve(ctx context.Context) error {
	stop := context.AfterFunc(ctx, func() { r.pc.Close() })
	defer stop()
	defer r.pc.Close()
	lim := newLimiter(r.cfg.Limits, time.Now())
	var summary Answer
	var summarized time.Time
	in := make([]byte, MaxDatagram)
	out := make([]byte, 0, MaxDatagram)
	for {
		n, from, err := r.pc.ReadFrom(in)
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return nil
			}
			return fmt.Errorf("discovery: read: %w", err)
		}
		now := time.Now()
		req, err := ParseRequest(in[:n])
		src, ok := addrOf(from)
		if err != nil || !ok {
			r.malformed.Add(1)
			continue
		}
		if !lim.allow(src, now) {
			r.limited.Add(1)
			continue
		}
		if summarized.IsZero() || now.Sub(summarized) >= r.cfg.SummaryEvery {
			summary, summarized = r.summarize(), now
		}
		r.answer(req, summary, from, out)
	}
}

// answer sends the answer to req, built from summary, to from.
func (r *Responder) answer(req Request, summary Answer, from net.Addr, buf []byte) {
	summary.Nonce, summary.ServerID = req.Nonce, r.cfg.ServerID
	b, err := AppendAnswer(buf[:0], summary, req.Budget())
	if err != nil {
		r.cfg.Logger.Debug("discovery: cannot answer", "from", from, "err", err)
		return
	}
	r.answered.Add(1) // before the send, so whoever receives the answer sees it counted
	if _, err := r.pc.WriteTo(b, from); err != nil {
		r.cfg.Logger.Debug("discovery: answer not sent", "to", from, "err", err)
	}
}

// addrOf returns a UDP source's IP.
func addrOf(a net.Addr) (netip.Addr, bool) {
	u, ok := a.(*net.UDPAddr)
	if !ok {
		return netip.Addr{}, false
	}
	ip, ok := netip.AddrFromSlice(u.IP)
	return ip.Unmap(), ok
}
