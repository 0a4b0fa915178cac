package linksim

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

const (
	// MaxLatency bounds Link.Latency and Link.Jitter. A geostationary satellite hop is
	// about 280 ms one way, so anything near ten seconds is a typo, not a network.
	MaxLatency = 10 * time.Second

	// MaxCloseWait is the longest Close waits for the packets already written to leave: a
	// packet's delay (latency and jitter, each at most MaxLatency), then at most MaxLatency
	// more for a wrapped conn whose writes hang.
	MaxCloseWait = 3 * MaxLatency

	// minReorderHold is the least extra delay Reorder adds: one KCP update interval (10 ms
	// with SetNoDelay(1, 10, ...)), so the next flush can overtake the held packet.
	minReorderHold = 10 * time.Millisecond

	// maxDatagram sizes the inbound read buffer: the largest payload UDP can carry.
	maxDatagram = 64 << 10

	// The two directions draw from separate streams of the same seed, so the inbound
	// reader and outbound writers never perturb each other's decisions.
	outboundStream = 1
	inboundStream  = 2
)

// errReadQueueFull reports that an inbound packet was due while MaxQueuedPackets were
// already waiting for ReadFrom.
var errReadQueueFull = errors.New("linksim: conditioner read queue full")

// Link describes what one direction of a ConditionedConn does to each packet. The zero
// Link passes every packet through unchanged.
type Link struct {
	// Latency is the one-way delay added to every packet in this direction.
	Latency time.Duration
	// Jitter varies each packet's delay uniformly within Latency ± Jitter, never below
	// zero. Jitter alone never reorders packets: a packet is never due before the one
	// sent ahead of it in the same direction, unless Reorder held that one back.
	Jitter time.Duration
	// Loss is the probability, from 0 to 1, that a packet is dropped.
	Loss float64
	// Duplicate is the probability, from 0 to 1, that a packet that is not lost is
	// delivered twice, back to back.
	Duplicate float64
	// Reorder is the probability, from 0 to 1, that a packet that is not lost is held
	// back by half the latency (at least 10 ms) plus the jitter, so that packets sent
	// shortly after it overtake it.
	Reorder float64
}

// Validate reports whether l is usable: latency and jitter within [0, MaxLatency] and
// every probability within [0, 1].
func (l Link) Validate() error { return l.validate("link") }

func (l Link) validate(what string) error {
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"latency", l.Latency}, {"jitter", l.Jitter}} {
		if d.v < 0 || d.v > MaxLatency {
			return fmt.Errorf("linksim: %s: %s %v is outside [0, %v]", what, d.name, d.v, MaxLatency)
		}
	}
	for _, p := range []struct {
		name string
		v    float64
	}{{"loss", l.Loss}, {"duplicate", l.Duplicate}, {"reorder", l.Reorder}} {
		if !(p.v >= 0 && p.v <= 1) { // also rejects NaN
			return fmt.Errorf("linksim: %s: %s probability %v is outside [0, 1]", what, p.name, p.v)
		}
	}
	return nil
}

// String formats l compactly, for example "120ms±10ms loss=5%"; probabilities that are
// zero are left out, so the zero Link prints as "0s".
func (l Link) String() string {
	var b strings.Builder
	b.WriteString(l.Latency.String())
	if l.Jitter > 0 {
		b.WriteString("±" + l.Jitter.String())
	}
	for _, p := range []struct {
		name string
		v    float64
	}{{"loss", l.Loss}, {"dup", l.Duplicate}, {"reorder", l.Reorder}} {
		if p.v != 0 {
			b.WriteString(" " + p.name + "=" + strconv.FormatFloat(p.v*100, 'g', 4, 64) + "%")
		}
	}
	return b.String()
}

// Conditions is the pair of links a ConditionedConn applies. The zero Conditions is a
// perfect link.
type Conditions struct {
	// Outbound applies to packets this side sends (WriteTo).
	Outbound Link
	// Inbound applies to packets this side receives (ReadFrom).
	Inbound Link
}

// Validate reports whether both links are usable.
func (c Conditions) Validate() error {
	if err := c.Outbound.validate("outbound link"); err != nil {
		return err
	}
	return c.Inbound.validate("inbound link")
}

// AddedRTT is the round-trip time the conditions add before jitter, reordering and
// retransmissions: the outbound plus the inbound latency.
func (c Conditions) AddedRTT() time.Duration { return c.Outbound.Latency + c.Inbound.Latency }

// String formats both links, for example "out 50ms loss=1%, in 50ms loss=1%".
func (c Conditions) String() string {
	return "out " + c.Outbound.String() + ", in " + c.Inbound.String()
}

// verdict is the fate decide gives one packet.
type verdict struct {
	drop      bool
	duplicate bool
	reordered bool
	delay     time.Duration // from arrival to delivery, including any reorder hold
}

// decide draws the fate of one packet on l. It takes exactly four draws from rng whatever
// l says, so a given seed and packet sequence always yield the same decisions, and
// changing one setting at run time never shifts the random stream behind the others.
func decide(l Link, rng *rand.Rand) verdict {
	lossDraw, dupDraw, reorderDraw, jitterDraw := rng.Float64(), rng.Float64(), rng.Float64(), rng.Float64()

	delay := l.Latency + time.Duration((2*jitterDraw-1)*float64(l.Jitter))
	if delay < 0 {
		delay = 0
	}
	if lossDraw < l.Loss {
		return verdict{drop: true}
	}
	v := verdict{delay: delay, duplicate: dupDraw < l.Duplicate}
	if reorderDraw < l.Reorder {
		v.reordered = true
		v.delay += max(l.Latency/2, minReorderHold) + l.Jitter
	}
	return v
}

// LinkStats counts what one direction of a ConditionedConn did. Once the direction is
// idle, Offered + Duplicated = Delivered + Lost + Overflowed + Failed; packets still
// queued when the conn closes are discarded without being counted.
type LinkStats struct {
	Offered    uint64 // packets that entered this direction
	Delivered  uint64 // packets passed on, duplicates included: written to the wrapped conn (outbound) or queued for ReadFrom (inbound)
	Lost       uint64 // packets dropped by Loss
	Duplicated uint64 // extra copies made by Duplicate
	Reordered  uint64 // packets held back by Reorder
	Overflowed uint64 // packets dropped because MaxQueuedPackets were already waiting
	Failed     uint64 // outbound packets the wrapped conn failed to write
}

// ConditionerStats holds the counters of both directions.
type ConditionerStats struct {
	Outbound, Inbound LinkStats
}

// ConditionedConn is a net.PacketConn that impairs the packets going through the conn it
// wraps, as described by its Conditions. Its random decisions come from a seeded source,
// one stream per direction, so the same seed and packet sequence reproduce the same
// losses, duplicates, reorderings and jitter (delivery times still follow the wall clock).
//
// It is meant to sit under kcp-go: as the client's conn in kcp.NewConn2, or the server's
// in kcp.ServeConn. It hides the wrapped conn's concrete type, so kcp-go falls back to
// plain ReadFrom and WriteTo calls instead of batch syscalls that would bypass it.
//
// A ConditionedConn is safe for concurrent use. It owns the wrapped conn: Close closes it.
type ConditionedConn struct {
	conn    net.PacketConn
	out, in *lane
	ready   chan delayedPacket // inbound packets that are due, waiting for ReadFrom

	readDeadline, writeDeadline deadlineSignal

	readFailed chan struct{} // closed when the wrapped conn's ReadFrom fails
	readErr    error         // why; written before readFailed is closed

	done      chan struct{} // closed by Close
	closing   atomic.Bool   // set by Close: writes are refused while it flushes
	closeOnce sync.Once
	wg        sync.WaitGroup // the reader and both lane schedulers
}

var _ net.PacketConn = (*ConditionedConn)(nil)

// Condition wraps conn so that packets written to and read from it suffer the conditions
// c, with decisions drawn from seed. It starts three goroutines (a reader and one
// scheduler per direction), which Close stops. Condition fails if c is invalid.
func Condition(conn net.PacketConn, c Conditions, seed uint64) (*ConditionedConn, error) {
	if conn == nil {
		return nil, errors.New("linksim: condition: nil conn")
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	cc := &ConditionedConn{
		conn:       conn,
		ready:      make(chan delayedPacket, MaxQueuedPackets),
		readFailed: make(chan struct{}),
		done:       make(chan struct{}),
	}
	cc.out = newLane(c.Outbound, rand.New(rand.NewPCG(seed, outboundStream)), cc.write)
	cc.in = newLane(c.Inbound, rand.New(rand.NewPCG(seed, inboundStream)), cc.enqueueRead)
	cc.in.backlog = func() int { return len(cc.ready) }

	cc.wg.Add(3)
	go func() { defer cc.wg.Done(); cc.out.run(cc.done) }()
	go func() { defer cc.wg.Done(); cc.in.run(cc.done) }()
	go func() { defer cc.wg.Done(); cc.readLoop() }()
	return cc, nil
}

// SetConditions changes the conditions for packets sent or received from now on; packets
// already queued keep their fate. Each direction switches independently. Lowering the
// latency does not let new packets overtake ones still queued.
func (c *ConditionedConn) SetConditions(cond Conditions) error {
	if err := cond.Validate(); err != nil {
		return err
	}
	c.out.setLink(cond.Outbound)
	c.in.setLink(cond.Inbound)
	return nil
}

// Conditions returns the conditions currently applied.
func (c *ConditionedConn) Conditions() Conditions {
	return Conditions{Outbound: c.out.currentLink(), Inbound: c.in.currentLink()}
}

// Stats returns both directions' counters. They are read one at a time, so while packets
// are moving a snapshot can be off by the few packets in transit.
func (c *ConditionedConn) Stats() ConditionerStats {
	return ConditionerStats{Outbound: c.out.stats.snapshot(), Inbound: c.in.stats.snapshot()}
}

// ReadFrom returns the next inbound packet that has survived the conditions, with the
// address of the peer that really sent it. A packet longer than b is truncated. ReadFrom
// blocks until a packet is due, the read deadline passes (a net.Error whose Timeout is
// true), the wrapped conn fails, or c is closed (an error wrapping net.ErrClosed).
func (c *ConditionedConn) ReadFrom(b []byte) (int, net.Addr, error) {
	// Checked in this order, like a socket: closed, then deadline, then data.
	if c.isClosed() {
		return 0, nil, c.opError("read", nil, net.ErrClosed)
	}
	passed := c.readDeadline.passed()
	select {
	case <-passed:
		return 0, nil, c.opError("read", nil, os.ErrDeadlineExceeded)
	default:
	}
	select {
	case p := <-c.ready:
		return copy(b, p.data), p.addr, nil
	default:
	}
	select {
	case p := <-c.ready:
		return copy(b, p.data), p.addr, nil
	case <-c.done:
		return 0, nil, c.opError("read", nil, net.ErrClosed)
	case <-passed:
		return 0, nil, c.opError("read", nil, os.ErrDeadlineExceeded)
	case <-c.readFailed:
		return 0, nil, c.readErr
	}
}

// WriteTo copies b and queues it for addr under the outbound conditions; it never blocks
// on the delay. It reports len(b) even when the packet is going to be lost, as a lossy
// network would; failures of the wrapped conn's WriteTo happen later and are counted as
// Failed in Stats.
func (c *ConditionedConn) WriteTo(b []byte, addr net.Addr) (int, error) {
	if c.closing.Load() {
		return 0, c.opError("write", addr, net.ErrClosed)
	}
	select {
	case <-c.done:
		return 0, c.opError("write", addr, net.ErrClosed)
	case <-c.writeDeadline.passed():
		return 0, c.opError("write", addr, os.ErrDeadlineExceeded)
	default:
	}
	if addr == nil {
		return 0, c.opError("write", nil, errors.New("missing address"))
	}
	data := make([]byte, len(b)) // kcp-go reuses b as soon as WriteTo returns
	copy(data, b)
	c.out.offer(data, addr, time.Now())
	return len(b), nil
}

// Close refuses further writes, lets the packets already written leave when they are due
// (as a real socket's would already be on the wire: a Goodbye written just before Close
// still arrives), then stops c's goroutines, discards inbound packets, unblocks ReadFrom
// and closes the wrapped conn, returning its error. It waits at most the delay of the
// last packet written, and never longer than MaxCloseWait. Later calls return an error
// wrapping net.ErrClosed.
func (c *ConditionedConn) Close() error {
	err := c.opError("close", nil, net.ErrClosed)
	c.closeOnce.Do(func() {
		c.closing.Store(true)
		c.flushOutbound()
		close(c.done)
		err = c.conn.Close()
		c.wg.Wait()
		c.readDeadline.set(time.Time{})
		c.writeDeadline.set(time.Time{})
	})
	return err
}

// LocalAddr returns the wrapped conn's local address.
func (c *ConditionedConn) LocalAddr() net.Addr { return c.conn.LocalAddr() }

// SetDeadline sets both the read and the write deadline.
func (c *ConditionedConn) SetDeadline(t time.Time) error {
	if err := c.SetReadDeadline(t); err != nil {
		return err
	}
	return c.SetWriteDeadline(t)
}

// SetReadDeadline makes pending and future ReadFrom calls fail with a timeout once t has
// passed. The zero t means no deadline.
func (c *ConditionedConn) SetReadDeadline(t time.Time) error {
	if c.isClosed() {
		return c.opError("set", nil, net.ErrClosed)
	}
	c.readDeadline.set(t)
	return nil
}

// SetWriteDeadline makes WriteTo fail with a timeout once t has passed. WriteTo never
// waits, so the deadline only matters once it is in the past. The zero t means none.
func (c *ConditionedConn) SetWriteDeadline(t time.Time) error {
	if c.isClosed() {
		return c.opError("set", nil, net.ErrClosed)
	}
	c.writeDeadline.set(t)
	return nil
}

// flushOutbound waits until the outbound lane has handed every packet on, or the last of
// them is overdue by MaxLatency (a wrapped conn whose writes hang).
func (c *ConditionedConn) flushOutbound() {
	var giveUp time.Time
	for {
		n, due := c.out.pending()
		if n == 0 {
			return
		}
		if giveUp.IsZero() {
			giveUp = due.Add(MaxLatency)
		}
		if time.Now().After(giveUp) {
			return
		}
		time.Sleep(max(time.Until(due), time.Millisecond))
	}
}

func (c *ConditionedConn) isClosed() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

func (c *ConditionedConn) opError(op string, addr net.Addr, err error) error {
	local := c.conn.LocalAddr()
	network := ""
	if local != nil {
		network = local.Network()
	}
	return &net.OpError{Op: op, Net: network, Source: local, Addr: addr, Err: err}
}

// write is the outbound lane's delivery: the packet goes out on the wrapped conn.
func (c *ConditionedConn) write(p delayedPacket) error {
	_, err := c.conn.WriteTo(p.data, p.addr)
	return err
}

// enqueueRead is the inbound lane's delivery: the packet waits for ReadFrom.
func (c *ConditionedConn) enqueueRead(p delayedPacket) error {
	select {
	case c.ready <- p:
		return nil
	default:
		return errReadQueueFull
	}
}

// readLoop feeds packets from the wrapped conn into the inbound lane until the conn fails
// or c is closed.
func (c *ConditionedConn) readLoop() {
	buf := make([]byte, maxDatagram)
	for {
		n, addr, err := c.conn.ReadFrom(buf)
		if n > 0 && addr != nil {
			data := make([]byte, n)
			copy(data, buf[:n])
			c.in.offer(data, addr, time.Now())
		}
		if err != nil {
			if !c.isClosed() {
				c.readErr = err
				close(c.readFailed)
			}
			return
		}
	}
}

// deadlineSignal turns an absolute deadline into a channel that is closed once the
// deadline has passed. Setting a new deadline reopens the channel when needed. The zero
// value has no deadline.
type deadlineSignal struct {
	mu    sync.Mutex
	timer *time.Timer
	ch    chan struct{}
}

// passed returns the channel that is closed once the current deadline has passed.
func (d *deadlineSignal) passed() <-chan struct{} {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.ch == nil {
		d.ch = make(chan struct{})
	}
	return d.ch
}

func (d *deadlineSignal) set(t time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.ch == nil {
		d.ch = make(chan struct{})
	}
	if d.timer != nil && !d.timer.Stop() {
		<-d.ch // the timer fired: wait for its func to finish closing the channel
	}
	d.timer = nil

	closed := false
	select {
	case <-d.ch:
		closed = true
	default:
	}
	wait := time.Until(t)
	switch {
	case t.IsZero() || wait > 0:
		if closed {
			d.ch = make(chan struct{})
		}
		if !t.IsZero() {
			ch := d.ch
			d.timer = time.AfterFunc(wait, func() { close(ch) })
		}
	case !closed:
		close(d.ch)
	}
}
