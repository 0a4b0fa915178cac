package transport

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/xtaci/kcp-go/v5"
	"google.golang.org/protobuf/proto"
)

// Game tuning for every KCP session, in one place. kcp-go's defaults favour bulk throughput;
// a game wants each small message delivered as soon as possible and retransmitted quickly.
const (
	kcpNoDelay    = 1    // "nodelay" mode: RTO grows gently (x1.5, not x2) after a loss
	kcpIntervalMS = 10   // internal flush timer; 10 ms keeps added latency well under a tick
	kcpResend     = 2    // fast retransmit after 2 duplicate ACKs, before the RTO fires
	kcpNoCongest  = 1    // no congestion window: our traffic is tiny and must not back off
	kcpWindow     = 256  // segments in flight each way: ~12 s of snapshots before Write blocks
	kcpMTU        = 1200 // below common path MTUs, tunnels and VPNs included: no fragmentation
	// kcpInputWindow is the window of the client-to-server stream (the client's send and the
	// server's receive window): a MoveInput every 50 ms fills 256 in 12.8 s, and on a link
	// with a second of latency a lost segment can take longer than that to get through, which
	// blocked the client's writes (make soak found it). 512 is 25.6 s of inputs.
	kcpInputWindow = 512
)

// FEC (Reed-Solomon over kcp-go's stream packets) is on for every session because kcp-go's
// out-of-band lane works only with FEC enabled on both ends. Datagrams themselves are never
// FEC-protected; the shards only change how the reliable stream recovers a lost packet.
// docs/PROTOCOL.md ("FEC") has the measurement behind these numbers.
const (
	fecDataShards   = 3 // a group fills within a tick or two of game traffic, so its parity is still useful
	fecParityShards = 1 // +33% stream packets: snapshots and repeated inputs travel as datagrams, outside FEC
)

// fecHeaderSize is what FEC adds in front of every packet: sequence id (4 bytes), type (2)
// and size (2). kcp-go counts it inside the MTU.
const fecHeaderSize = 8

// MaxDatagramSize is the largest payload SendDatagram carries, in bytes: the MTU less the FEC
// header and the 4-byte conversation id kcp-go puts in front of every out-of-band packet.
const MaxDatagramSize = kcpMTU - fecHeaderSize - 4

// ErrDatagramTooLarge reports a datagram payload above MaxDatagramSize.
var ErrDatagramTooLarge = errors.New("transport: datagram exceeds maximum size")

// fecShards is a session's FEC setting; the zero value means no FEC and so no datagrams.
type fecShards struct{ data, parity int }

// defaultFEC is what Dial and Listen use.
var defaultFEC = fecShards{fecDataShards, fecParityShards}

// Timeouts shared by server and client.
const (
	// IdleTimeout is how long a peer may stay silent before it is presumed gone. KCP has no
	// close message, so silence is the only sign of a vanished peer. Clients send an input
	// every 50 ms and the server a snapshot every 50 ms, so 5 s is a hundred missed messages.
	IdleTimeout = 5 * time.Second
	// WriteTimeout bounds one blocked Write: a peer whose window stays full this long is not
	// reading and is dropped.
	WriteTimeout = 2 * time.Second
)

// WaitWithin returns how long a reader may wait for its next message, usually usual, when
// the peer has been silent (or stalled) for elapsed and is given up at limit: cut so it wakes
// as the limit is reached, not up to a whole wait after. Once the limit has passed (a reader
// that keeps waiting for another reason) it is usual again, never a busy loop.
func WaitWithin(usual, limit, elapsed time.Duration) time.Duration {
	if left := limit - elapsed; left > 0 && left < usual {
		return left
	}
	return usual
}

// tune applies the game settings to s.
func tune(s *kcp.UDPSession) {
	s.SetNoDelay(kcpNoDelay, kcpIntervalMS, kcpResend, kcpNoCongest)
	s.SetWindowSize(kcpWindow, kcpWindow)
	s.SetMtu(kcpMTU)
	s.SetACKNoDelay(true)  // acknowledge at once: faster RTT estimates and retransmits
	s.SetWriteDelay(false) // put each message on the wire when written
}

// Conn is one framed KCP session. Send and SendFrame may be called from several goroutines;
// Recv from one goroutine at a time.
type Conn struct {
	sess *kcp.UDPSession
	fr   *FrameReader
	own  *dialGate      // the dialed socket, closed after the session; nil on a server
	peer *peerAdmission // a server's view of the peer's admitted address; nil when dialed

	mu   sync.Mutex // serializes writes and guards buf
	buf  []byte
	once sync.Once

	closing atomic.Bool // Close was called: sending and receiving fail from then on
	closeMu sync.Mutex  // orders Close with the deadlines Recv and Send set, and with OnDatagram
}

func newConn(s *kcp.UDPSession) *Conn {
	tune(s)
	return &Conn{sess: s, fr: NewFrameReader(s)}
}

// ConnectTimeout bounds Dial's connect handshake (DialContext takes a context instead).
const ConnectTimeout = 5 * time.Second

// Dial is DialContext with ConnectTimeout.
func Dial(addr string, pc net.PacketConn) (*Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), ConnectTimeout)
	defer cancel()
	return dial(ctx, addr, pc, defaultFEC)
}

// DialContext validates our address with the server at addr ("host:port") through the
// connect handshake (see connect.go), then opens a KCP session to it over pc, or over a new
// UDP socket when pc is nil. It fails if no Challenge arrives before ctx ends. The returned
// Conn owns pc and closes it after Close.
func DialContext(ctx context.Context, addr string, pc net.PacketConn) (*Conn, error) {
	return dial(ctx, addr, pc, defaultFEC)
}

func dial(ctx context.Context, addr string, pc net.PacketConn, fec fecShards) (*Conn, error) {
	raddr, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		if pc != nil {
			pc.Close() // we own it whatever happens
		}
		return nil, fmt.Errorf("transport: resolve %s: %w", addr, err)
	}
	if pc == nil {
		if pc, err = net.ListenUDP("udp", nil); err != nil {
			return nil, fmt.Errorf("transport: open socket: %w", err)
		}
		TuneSocket(pc)
	}
	ck, err := fetchCookie(ctx, pc, raddr)
	if err != nil {
		pc.Close()
		return nil, err
	}
	var id [4]byte
	rand.Read(id[:]) // conversation id: random, so a restarted client is a new session
	conv := binary.LittleEndian.Uint32(id[:])
	gate := &dialGate{PacketConn: pc, server: raddr, cookie: ck, conv: conv}
	s, err := kcp.NewConn3(conv, raddr, nil, fec.data, fec.parity, gate)
	if err != nil {
		pc.Close()
		return nil, fmt.Errorf("transport: dial %s: %w", addr, err)
	}
	c := newConn(s)
	s.SetWindowSize(kcpInputWindow, kcpWindow) // we send the inputs
	c.own = gate
	return c, nil
}

// Send frames m and writes it as one KCP message, blocking at most WriteTimeout.
func (c *Conn) Send(m proto.Message) error {
	if c.closing.Load() { // before the lock, which a closed Conn's drain holds
		return c.closedError("write to")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var err error
	if c.buf, err = AppendFrame(c.buf[:0], m); err != nil {
		return err
	}
	return c.writeWithin(c.buf, WriteTimeout)
}

// SendFrame writes an already framed message (see AppendFrame), blocking at most
// WriteTimeout. The server uses it to send one encoded snapshot to every client.
func (c *Conn) SendFrame(frame []byte) error { return c.SendFrameWithin(frame, WriteTimeout) }

// SendFrameWithin is SendFrame blocking at most timeout instead of WriteTimeout: the server
// gives a client that said it is away (a frozen page acknowledges nothing) its away timeout.
func (c *Conn) SendFrameWithin(frame []byte, timeout time.Duration) error {
	if c.closing.Load() {
		return c.closedError("write to")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.writeWithin(frame, timeout)
}

func (c *Conn) writeWithin(b []byte, timeout time.Duration) error {
	if !c.until(c.sess.SetWriteDeadline, time.Now().Add(timeout)) {
		return c.closedError("write to")
	}
	if _, err := c.sess.Write(b); err != nil {
		if c.closing.Load() {
			return c.closedError("write to") // Close woke us; a blocked Write queues nothing
		}
		return fmt.Errorf("transport: write to %s: %w", c.sess.RemoteAddr(), err)
	}
	return nil
}

// Recv reads the next message into m, waiting at most timeout (0 means IdleTimeout).
func (c *Conn) Recv(m proto.Message, timeout time.Duration) error {
	if timeout <= 0 {
		timeout = IdleTimeout
	}
	if !c.until(c.sess.SetReadDeadline, time.Now().Add(timeout)) {
		return c.closedError("read from")
	}
	if err := c.fr.Read(m); err != nil {
		if c.closing.Load() {
			return c.closedError("read from") // Close woke us: not the peer's silence
		}
		return err
	}
	return nil
}

// until sets one of the session's deadlines (set: its read or write deadline) to t and
// reports true, unless Close has begun: Close sets both deadlines to its own moment, waking
// a Recv or a Send that waits, and no Recv or Send may set them later again.
func (c *Conn) until(set func(time.Time) error, t time.Time) bool {
	c.closeMu.Lock()
	defer c.closeMu.Unlock()
	if c.closing.Load() {
		return false
	}
	set(t)
	return true
}

// closedError is what sending or receiving on a closed Conn returns.
func (c *Conn) closedError(op string) error {
	return fmt.Errorf("transport: %s %s: %w", op, c.sess.RemoteAddr(), net.ErrClosed)
}

// RemoteAddr returns the peer's address.
func (c *Conn) RemoteAddr() net.Addr { return c.sess.RemoteAddr() }

// SmoothedRTT returns KCP's smoothed round-trip estimate, or 0 before the first ACK.
func (c *Conn) SmoothedRTT() time.Duration {
	return time.Duration(c.sess.GetSRTT()) * time.Millisecond
}

// CloseLinger bounds how long a dialed session outlives its Close to see what it sent last
// acknowledged, such as a Goodbye: KCP keeps retransmitting it meanwhile, so one lost packet
// does not lose it. A listener's socket outlives the listener's Close as long, for the last
// messages its sessions sent (a Disconnect). (A link conditioner under a socket delays those
// messages further; its own Close lets them leave first.)
const CloseLinger = 500 * time.Millisecond

// lingering counts the dialed sessions that closed Conns keep open until what they sent is
// acknowledged (at most CloseLinger). (Not a sync.WaitGroup: a session may close while
// another goroutine waits.)
var lingering struct {
	mu   sync.Mutex
	n    int
	none chan struct{} // closed when n drops to 0; a new one each time n leaves 0
}

func lingerStart() {
	lingering.mu.Lock()
	defer lingering.mu.Unlock()
	if lingering.n == 0 {
		lingering.none = make(chan struct{})
	}
	lingering.n++
}

func lingerDone() {
	lingering.mu.Lock()
	defer lingering.mu.Unlock()
	if lingering.n--; lingering.n == 0 {
		close(lingering.none)
	}
}

// WaitLingering waits until every dialed session a Conn's Close kept open has seen its last
// messages acknowledged (or CloseLinger passed) and closed its socket, and a link conditioner
// under the socket has let its last packets leave, but at most max; it reports whether they
// all were. A program calls it before it exits: the process would otherwise end before the
// sessions do, and the Goodbye they just sent would go with it.
func WaitLingering(max time.Duration) bool {
	timer := time.NewTimer(max)
	defer timer.Stop()
	for {
		lingering.mu.Lock()
		n, none := lingering.n, lingering.none
		lingering.mu.Unlock()
		if n == 0 {
			return true
		}
		select {
		case <-none: // sockets closed since may have opened new lingers: look again
		case <-timer.C:
			return false
		}
	}
}

// Close closes the Conn and returns at once; it is safe to call more than once. From then on
// Send, Recv and datagrams fail at once with an error wrapping net.ErrClosed, a Recv or a
// Send waiting included (a Send that waited sent nothing), and no datagram is delivered
// after the one being delivered, if any. A dialed session the server has answered keeps
// retransmitting what it sent before until the server has acknowledged all of it, for at
// most CloseLinger, and then closes its socket (see WaitLingering). One the server never
// answered sends what it had once and closes its socket CloseLinger later: a retransmission
// arriving after the server ended that session would open a new one. A server's session
// likewise keeps retransmitting its last messages (a Reject, a Disconnect) until the client
// has acknowledged them, for at most CloseLinger, and only then forgets the client's
// address (whose acknowledgements it needs until then).
func (c *Conn) Close() error {
	var err error
	c.once.Do(func() {
		c.closeMu.Lock()
		c.closing.Store(true)
		now := time.Now()
		c.sess.SetReadDeadline(now)
		c.sess.SetWriteDeadline(now)
		_ = c.sess.SetOOBHandler(nil)
		c.closeMu.Unlock()
		if c.own == nil {
			go func() {
				c.awaitAcknowledged(CloseLinger)
				c.sess.Close()
				c.peer.release()
			}()
			return
		}
		lingerStart()
		if !c.own.admitted() {
			// The server has answered nothing: our segments still carry the cookie, and one
			// retransmitted after the server ended the session would open another. So what
			// was sent goes once (kcp-go's Close stops retransmitting), given CloseLinger to
			// leave.
			err = c.sess.Close()
			time.AfterFunc(CloseLinger, func() {
				defer lingerDone()
				c.own.Close()
			})
			return
		}
		go func() {
			defer lingerDone()
			c.awaitAcknowledged(CloseLinger)
			c.sess.Close()
			c.own.Close()
		}()
	})
	return err
}

// awaitAcknowledged waits until the peer has acknowledged every segment sent, at most
// within. kcp-go has no call for that, but its Write waits while the unacknowledged segments
// fill the send window: with a window of one segment, an empty Write (which sends nothing)
// returns once none is left unacknowledged, or fails at its deadline. (Segments still queued
// behind a full window then leave one a round trip, after those in flight.)
func (c *Conn) awaitAcknowledged(within time.Duration) {
	c.mu.Lock() // after any Send that came before Close, which is then awaited too
	defer c.mu.Unlock()
	c.sess.SetWindowSize(1, 0)
	c.sess.SetWriteDeadline(time.Now().Add(within))
	_, _ = c.sess.Write(nil)
}

// IsTimeout reports whether err is a read or write deadline expiring.
func IsTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// Listener accepts KCP sessions on a packet connection.
type Listener struct {
	l    *kcp.Listener
	pc   net.PacketConn
	gate *gate

	stopOnce  sync.Once
	stoppedAt time.Time
}

// ListenConfig tunes a Listener's address validation. The zero value is the default.
type ListenConfig struct {
	// ChallengesPerSecond is the Challenge budget, shared fairly among source prefixes (see
	// fairshare.go); 0 means DefaultChallengesPerSecond. A smaller server may want less.
	ChallengesPerSecond int
	// AnswerOldClient, when set, reads the data of the first KCP segment from an address not
	// admitted (a protocol 1 client opens with its Hello there, skipping the connect
	// handshake) and returns the frame to send back in one KCP segment, or nil to stay
	// silent. Replies are rate limited and kept within AmplificationLimit. The server sets
	// wire.OldClientReject; nil answers nobody.
	AnswerOldClient func(payload []byte) []byte
}

// challengeRate is ChallengesPerSecond, or the default when it is not positive.
func (c ListenConfig) challengeRate() int {
	if c.ChallengesPerSecond > 0 {
		return c.ChallengesPerSecond
	}
	return DefaultChallengesPerSecond
}

// Listen serves KCP on pc, behind address validation (see connect.go), and owns pc: Close
// closes it too.
func Listen(pc net.PacketConn, cfg ListenConfig) (*Listener, error) {
	return listen(pc, defaultFEC, cfg)
}

func listen(pc net.PacketConn, fec fecShards, cfg ListenConfig) (*Listener, error) {
	g := newGate(pc, cfg.challengeRate(), cfg.AnswerOldClient)
	l, err := kcp.ServeConn(nil, fec.data, fec.parity, g)
	if err != nil {
		return nil, fmt.Errorf("transport: serve %s: %w", pc.LocalAddr(), err)
	}
	return &Listener{l: l, pc: pc, gate: g}, nil
}

// Accept waits for the next session.
func (l *Listener) Accept() (*Conn, error) {
	s, err := l.l.AcceptKCP()
	if err != nil {
		return nil, err
	}
	c := newConn(s)
	s.SetWindowSize(kcpWindow, kcpInputWindow) // we receive the inputs
	c.peer = l.gate.peerOf(s.RemoteAddr(), s.GetConv())
	return c, nil
}

// GateStats returns what address validation has done so far.
func (l *Listener) GateStats() GateStats { return l.gate.stats() }

// Traffic returns every datagram and byte the listener's socket read and wrote so far:
// sessions, handshakes and what the gate dropped.
func (l *Listener) Traffic() Traffic { return l.gate.traffic.totals() }

// StopAccepting makes Accept fail from now on. The socket stays open, so sessions closed
// just before can still flush their last messages (a Disconnect, say). Safe to call more
// than once.
func (l *Listener) StopAccepting() {
	l.stopOnce.Do(func() {
		l.stoppedAt = time.Now()
		l.l.Close()
	})
}

// Close stops accepting, waits until CloseLinger has passed since accepting stopped, and
// closes the socket. Sessions already accepted can no longer send or receive afterwards.
func (l *Listener) Close() error {
	l.StopAccepting()
	time.Sleep(time.Until(l.stoppedAt.Add(CloseLinger)))
	return l.pc.Close()
}
