package transport

import (
	"crypto/rand"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"
)

// Limits on the work and state the server's address validation spends before and after
// admitting an address.
const (
	// maxAdmitted caps the admitted addresses: 16 times the largest server, room for
	// reconnects and addresses whose sessions have just ended; about 200 bytes each.
	maxAdmitted = 4096
	// admitIdle forgets an admitted address without a live session that has sent nothing
	// for this long. An address with a live session is forgotten only when the session
	// ends (release): its server decides when silence ends it, and forgives the silence of
	// a pause the server itself took (server/pause.go), which the gate cannot tell apart.
	admitIdle = 2 * IdleTimeout
	// DefaultChallengesPerSecond bounds the Challenges sent in total (beyond each source
	// prefix's first prefixBurst), so a flood of spoofed requests costs the server a fixed
	// amount of MAC work and bandwidth; it is shared fairly among source prefixes (see
	// fairshare.go). ListenConfig.ChallengesPerSecond sets another budget.
	DefaultChallengesPerSecond = 10000
	// legacyRejectsPerSecond and legacyRejectBurst bound the courtesy replies to protocol 1
	// clients (see legacyReject): a nicety, so kept small.
	legacyRejectsPerSecond = 50
	legacyRejectBurst      = 10
	// AmplificationLimit is the most bytes the server sends an address that has not proved
	// it receives there, per byte it received from that address (QUIC's rule). Every
	// pre-admission reply is answered datagram for datagram and checked against it.
	AmplificationLimit = 3
)

// GateStats counts what the server's address validation did. All counts since Listen.
type GateStats struct {
	Challenges    uint64 // Challenges sent
	Admitted      uint64 // addresses admitted by a valid cookie (new or with a new conv)
	Replaced      uint64 // of Admitted: an admitted address starting a new conversation
	Admissions    int    // addresses admitted right now
	Unvalidated   uint64 // KCP datagrams from addresses not admitted, dropped
	WrongConv     uint64 // datagrams from an admitted address for another conversation, dropped
	BadCookies    uint64 // ConnectResponses with a forged, foreign or expired cookie
	Malformed     uint64 // handshake datagrams too short or of a kind clients do not send
	Throttled     uint64 // replies not sent because a total budget was spent
	Full          uint64 // admissions refused because maxAdmitted addresses were admitted
	LegacyRejects uint64 // protocol 1 Hellos answered with a Reject
	BytesIn       uint64 // bytes received from addresses not admitted
	BytesOut      uint64 // bytes sent to addresses not admitted
}

// admission is one admitted address: the conversation its cookie let in, and how its peer
// acknowledges.
type admission struct {
	addr     netip.AddrPort
	conv     uint32
	lastSeen atomic.Int64 // gate time, ns
	live     atomic.Bool  // a server session runs on it (peerOf): only its release forgets it
	ack      ackWatch
}

// gate is the server's address-validation layer: a net.PacketConn between kcp-go and the
// socket (or link conditioner) that passes up only datagrams from admitted addresses, for
// the conversation they were admitted with, and answers the connect handshake itself.
type gate struct {
	net.PacketConn // the socket or conditioner below: its Close, LocalAddr and deadlines are ours
	minter         cookieMinter
	epoch          time.Time                   // gate time zero
	clock          func() time.Duration        // for tests: gate time instead of the time since epoch
	answerOld      func(payload []byte) []byte // ListenConfig.AnswerOldClient

	mu       sync.RWMutex
	admitted map[netip.AddrPort]*admission

	// Used only by the single goroutine in ReadFrom.
	challenges *challengeShare
	legacy     tokenBucket
	nextSweep  time.Duration
	reply      []byte

	challengesSent, admits, replaced, unvalidated, wrongConv atomic.Uint64
	badCookies, malformed, throttled, full, legacyRejects    atomic.Uint64
	bytesIn, bytesOut                                        atomic.Uint64 // unvalidated traffic
	traffic                                                  trafficCount  // everything through the socket
}

// newGate validates the addresses that send to pc, sending at most challengesPerSecond
// Challenges a second beyond each prefix's burst, and answering protocol 1 clients with
// what answerOld returns (nil: never).
func newGate(pc net.PacketConn, challengesPerSecond int, answerOld func([]byte) []byte) *gate {
	g := &gate{PacketConn: pc, epoch: time.Now(), admitted: map[netip.AddrPort]*admission{}, answerOld: answerOld,
		challenges: newChallengeShare(float64(challengesPerSecond)),
		legacy:     tokenBucket{rate: legacyRejectsPerSecond, burst: legacyRejectBurst, tokens: legacyRejectBurst},
	}
	rand.Read(g.minter.key[:]) // never fails (crypto/rand panics rather than return weak bytes)
	return g
}

// now returns gate time: since the gate was made, or what a test's clock says.
func (g *gate) now() time.Duration {
	if g.clock != nil {
		return g.clock()
	}
	return time.Since(g.epoch)
}

// addrPort turns a net.Addr into a comparable map key without allocating for UDP addresses.
func addrPort(a net.Addr) netip.AddrPort {
	if u, ok := a.(*net.UDPAddr); ok {
		ip, _ := netip.AddrFromSlice(u.IP)
		return netip.AddrPortFrom(ip.Unmap(), uint16(u.Port))
	}
	ap, _ := netip.ParseAddrPort(a.String())
	return netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())
}

// ReadFrom returns the next datagram for kcp-go: one from an admitted address for its
// admitted conversation, or the KCP datagram inside a ConnectResponse whose cookie admits
// its sender. Everything else is answered (a Challenge, a protocol 1 Reject) or dropped here.
func (g *gate) ReadFrom(b []byte) (int, net.Addr, error) {
	for {
		n, addr, err := g.PacketConn.ReadFrom(b)
		g.traffic.in(n)
		if err != nil {
			return n, addr, err
		}
		now := g.now()
		g.sweep(now)
		ap := addrPort(addr)
		data := b[:n]
		if _, _, err := connectKind(data); err == nil {
			known := g.lookup(ap)
			if known == nil {
				g.bytesIn.Add(uint64(n)) // whatever it is: the handshake's bytes, good or bad
			}
			if inner := g.handshake(data, addr, ap, known, now); inner != nil {
				return copy(b, inner), addr, nil
			}
			continue
		}
		a := g.lookup(ap)
		if a == nil {
			g.unvalidated.Add(1)
			g.bytesIn.Add(uint64(n))
			g.legacyReject(data, addr)
			continue
		}
		if conv, ok := datagramConv(data); ok && conv != a.conv {
			g.wrongConv.Add(1) // a spoofed reset, or an old conversation's straggler
			continue
		}
		a.lastSeen.Store(int64(now))
		a.ack.received(data, now)
		return n, addr, nil
	}
}

// handshake handles one connect datagram from addr, whose admission is known (nil: none),
// and returns the KCP datagram to pass to kcp-go, if there is one.
func (g *gate) handshake(data []byte, addr net.Addr, ap netip.AddrPort, known *admission, now time.Duration) (inner []byte) {
	kind, version, _ := connectKind(data)
	nowMS := uint64(time.Now().UnixMilli())
	switch kind {
	case kindConnectRequest:
		if len(data) < ConnectRequestSize {
			g.malformed.Add(1)
			return nil
		}
		g.sendChallenge(ap, addr, nowMS, len(data))
		return nil
	case kindConnectResponse:
		c, inner, err := parseConnectResponse(data)
		conv, ok := datagramConv(inner)
		parity := !ok && isParity(inner)
		if err != nil || !(ok || parity) || version != ProtocolVersion {
			g.malformed.Add(1)
			return nil
		}
		if !g.minter.valid(c, ap, nowMS) {
			g.badCookies.Add(1)
			g.sendChallenge(ap, addr, nowMS, len(data)) // an expired cookie gets a fresh one
			return nil
		}
		if parity {
			// A client wraps everything KCP sends until it is admitted, FEC parity too,
			// which names no conversation: it admits no one, but once its address is
			// admitted it belongs to that conversation's groups, as a bare one would.
			if known == nil {
				return nil
			}
			known.lastSeen.Store(int64(now))
			return inner
		}
		a := g.admit(ap, conv, now)
		if a == nil {
			return nil
		}
		a.lastSeen.Store(int64(now))
		a.ack.received(inner, now)
		return inner
	default: // a Challenge: only servers send those
		g.malformed.Add(1)
		return nil
	}
}

// sendChallenge answers a datagram of size received bytes from addr with a fresh cookie, if
// the budget allows. Every datagram that gets here is at least ConnectRequestSize bytes,
// which keeps the Challenge within the amplification limit.
func (g *gate) sendChallenge(ap netip.AddrPort, addr net.Addr, nowMS uint64, received int) {
	if !g.challenges.take(ap.Addr(), g.now()) {
		g.throttled.Add(1)
		return
	}
	g.reply = appendChallenge(g.reply[:0], g.minter.mint(ap, nowMS))
	g.sendUnvalidated(g.reply, addr, received)
	g.challengesSent.Add(1)
}

// sendUnvalidated writes b to an address not admitted, in answer to received bytes, unless
// that would send more than AmplificationLimit times what came; it reports whether it sent.
func (g *gate) sendUnvalidated(b []byte, addr net.Addr, received int) bool {
	if len(b) > AmplificationLimit*received {
		return false
	}
	n, err := g.PacketConn.WriteTo(b, addr)
	g.traffic.out(n)
	if err == nil {
		g.bytesOut.Add(uint64(len(b)))
	}
	return true
}

// admit records ap as admitted for conv and returns its admission, or nil when the table
// is full. A known address with a new conversation gets a new admission.
func (g *gate) admit(ap netip.AddrPort, conv uint32, now time.Duration) *admission {
	g.mu.Lock()
	defer g.mu.Unlock()
	old := g.admitted[ap]
	if old != nil && old.conv == conv {
		return old
	}
	if old == nil && len(g.admitted) >= maxAdmitted {
		g.full.Add(1)
		return nil
	}
	a := &admission{addr: ap, conv: conv}
	a.lastSeen.Store(int64(now))
	g.admitted[ap] = a
	g.admits.Add(1)
	if old != nil {
		g.replaced.Add(1)
	}
	return a
}

func (g *gate) lookup(ap netip.AddrPort) *admission {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.admitted[ap]
}

// release forgets a, if it is still the admission of its address: its session has ended,
// and the address must prove itself again before kcp-go sees it.
func (g *gate) release(a *admission) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.admitted[a.addr] == a {
		delete(g.admitted, a.addr)
	}
}

// sweep forgets, at most once a second, the addresses silent for admitIdle that have no
// live session.
func (g *gate) sweep(now time.Duration) {
	if now < g.nextSweep {
		return
	}
	g.nextSweep = now + time.Second
	g.challenges.sweep(now)
	g.mu.Lock()
	defer g.mu.Unlock()
	for ap, a := range g.admitted {
		if !a.live.Load() && now-time.Duration(a.lastSeen.Load()) > admitIdle {
			delete(g.admitted, ap)
		}
	}
}

// WriteTo sends b to addr and notes, for an admitted address, what it asks the peer to
// acknowledge.
func (g *gate) WriteTo(b []byte, addr net.Addr) (int, error) {
	if a := g.lookup(addrPort(addr)); a != nil {
		a.ack.sent(b, g.now())
	}
	n, err := g.PacketConn.WriteTo(b, addr)
	g.traffic.out(n)
	return n, err
}

// stats returns the counters.
func (g *gate) stats() GateStats {
	g.mu.RLock()
	n := len(g.admitted)
	g.mu.RUnlock()
	return GateStats{
		Challenges: g.challengesSent.Load(), Admitted: g.admits.Load(), Replaced: g.replaced.Load(),
		Admissions: n, Unvalidated: g.unvalidated.Load(), WrongConv: g.wrongConv.Load(),
		BadCookies: g.badCookies.Load(), Malformed: g.malformed.Load(), Throttled: g.throttled.Load(),
		Full: g.full.Load(), LegacyRejects: g.legacyRejects.Load(),
		BytesIn: g.bytesIn.Load(), BytesOut: g.bytesOut.Load(),
	}
}

// tokenBucket allows rate events a second, burst at once. Not safe for concurrent use.
type tokenBucket struct {
	rate, burst, tokens float64
	at                  time.Duration
}

func (t *tokenBucket) take(now time.Duration) bool {
	t.tokens = min(t.burst, t.tokens+(now-t.at).Seconds()*t.rate)
	t.at = now
	if t.tokens < 1 {
		return false
	}
	t.tokens--
	return true
}

// peerAdmission ties a server Conn to the admission its session came in with.
type peerAdmission struct {
	g *gate
	a *admission
}

// peerOf returns the admission of addr for conversation conv, for a session kcp-go just
// created from it. It returns nil when there is none: the admission was released (the
// session is about to fail anyway) or replaced by a newer conversation from the same
// address, which this session must not be able to release.
func (g *gate) peerOf(addr net.Addr, conv uint32) *peerAdmission {
	a := g.lookup(addrPort(addr))
	if a == nil || a.conv != conv {
		return nil
	}
	a.live.Store(true)
	return &peerAdmission{g: g, a: a}
}

// release forgets the admission; safe on nil.
func (p *peerAdmission) release() {
	if p != nil {
		p.g.release(p.a)
	}
}

// AckStall returns how long the peer has left the server's reliable data unacknowledged or
// its receive window shut (0 while it keeps up). Only server-side Conns know; a dialed Conn
// returns 0.
func (c *Conn) AckStall() time.Duration {
	if c.peer == nil {
		return 0
	}
	return c.peer.a.ack.stall(c.peer.g.now())
}

// SilentFor returns how long ago the last packet of any kind (stream, acknowledgement or
// datagram) arrived from the peer, or a very long time if none has. A peer can be alive
// while its stream is stalled behind a lost segment: callers time it out on this, not on
// a stream read alone.
func (c *Conn) SilentFor() time.Duration {
	switch {
	case c.peer != nil:
		return c.peer.g.now() - time.Duration(c.peer.a.lastSeen.Load())
	case c.own != nil:
		if heard := c.own.heard.Load(); heard != 0 {
			return time.Since(time.Unix(0, heard))
		}
	}
	return time.Duration(1<<63 - 1)
}
