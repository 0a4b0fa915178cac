package load

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/protobuf/proto"

	"tanknet/client"
	"tanknet/netcode"
	"tanknet/transport"
	"tanknet/wire"
)

// Script is the input a thin client sends for move tick (its first is 1 past the tick the
// server had acknowledged when the client first saw its tank).
type Script func(tick uint32) netcode.Input

// pingEvery is how often a thin client pings, as a full client does (client/uplink.go).
const pingEvery = 500 * time.Millisecond

// repeatedInputs is how many of the newest unacknowledged inputs each InputBatch repeats,
// as a full client's (client/uplink.go): 0.5 s of inputs.
const repeatedInputs = 10

// sentSlots is how many recent move ticks a thin client remembers the intended send time
// of: more than the 120-tick input lead a server allows by default.
const sentSlots = 256

// maxInbox bounds what arrives for a thin client between two passes of its driver: 4 s of
// snapshot chunks and pongs. A driver that far behind loses the newest, counted.
const maxInbox = 80

// thin is one thin client: its link and what it needs to speak the protocol and check
// the server, nothing more. Its driver goroutine calls update and pass; its link's reader
// goroutine only adds to its inbox.
type thin struct {
	link      *link
	welcome   wire.Welcome
	script    Script
	datagrams bool

	mu     sync.Mutex
	inbox  []arrival // what arrived since the driver's last pass
	ended  error     // why the session ended; nil while it runs
	closed bool      // close was called: the reader's end is no failure

	// The reader's own.
	joined   bool
	welcomed chan error // the handshake's outcome, sent once
	readDone chan struct{}
	newest   uint32        // the newest chunk tick taken, to refuse far-future ones
	bad      atomic.Uint64 // datagrams that are no acceptable chunk
	dropped  atomic.Uint64 // arrivals the full inbox had no room for

	// The driver's own.
	work   []arrival
	start  time.Time // the intended send time of move tick first
	first  uint32    // the first move tick; 0 until the client has seen its tank
	next   uint32    // the next move tick to send
	acked  uint32    // the newest move tick the server said it applied
	intent [sentSlots]time.Time
	recent []netcode.PendingInput // the newest inputs sent, for the InputBatch
	batch  []netcode.PendingInput
	enc    wire.BatchEncoder // the InputBatch datagram's message and buffer
	moves  wire.MoveEncoder  // the Move frames, reused
	frame  []byte            // the stream frame being sent

	arrivals     arrivals
	nextPing     time.Time
	ackBackwards uint64 // states whose acknowledged tick went back: an input applied twice or lost
	err          error  // why the session ended, once the driver has seen it
}

// arrival is one message a thin client took: a snapshot chunk's head, or a pong.
type arrival struct {
	at   time.Time
	head wire.ChunkHead // a chunk's, when pong is 0
	pong uint64         // a Pong's ClientTimeUs
}

// dialThin joins a thin client to addr as name into room, waiting at most timeout for the
// server's Welcome, and leaves its reader running (close stops it). Its errors read as
// client.DialRoom's (a *client.RejectedError when the server refuses us).
func dialThin(ctx context.Context, addr, name, room string, timeout time.Duration, script Script) (*thin, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	l, err := dialLink(ctx, addr)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("client: no answer from %s within %v (is a tankserver running there?): %w", addr, timeout, err)
		}
		return nil, err
	}
	c := &thin{link: l, script: script, welcomed: make(chan error, 1), readDone: make(chan struct{})}
	go c.read()
	hello := wire.ClientMessageToProto(wire.Hello{ProtocolVersion: transport.ProtocolVersion, Name: name, Room: room})
	if err := c.sendFrame(hello, time.Now(), true); err != nil {
		c.close("")
		return nil, err
	}
	clock := time.NewTicker(transport.KCPInterval) // the conversation's clock until a driver takes it
	defer clock.Stop()
	for {
		select {
		case err := <-c.welcomed:
			if err != nil {
				c.close("")
				return nil, err
			}
			return c, nil
		case <-ctx.Done():
			c.close("")
			return nil, fmt.Errorf("client: no answer from %s within %v (is a tankserver running there?)", addr, timeout)
		case now := <-clock.C:
			l.update(now)
		}
	}
}

// read runs the link's reader until the session ends, and keeps why.
func (c *thin) read() {
	defer close(c.readDone)
	err := c.link.read(c.onStream, c.onDatagram)
	c.mu.Lock()
	if c.closed {
		err = nil
	}
	c.ended = err
	c.mu.Unlock()
	c.link.close()
	if !c.joined {
		c.welcomed <- cmpErr(err, errors.New("client: the session ended before Welcome"))
	}
}

// cmpErr returns a, or b when a is nil.
func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// onDatagram takes one datagram on the reader: it reads the chunk's head and our own
// tank's acknowledgement (wire.ScanChunk) and leaves them for the driver.
func (c *thin) onDatagram(b []byte) {
	if !c.joined || !c.datagrams {
		return
	}
	h, err := wire.ScanChunk(b, c.newest, c.welcome.PlayerID)
	if err != nil {
		c.bad.Add(1)
		return
	}
	c.newest = max(c.newest, h.Tick)
	c.put(arrival{at: time.Now(), head: h})
}

// put leaves a for the driver.
func (c *thin) put(a arrival) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.inbox) >= maxInbox {
		c.dropped.Add(1)
		return
	}
	c.inbox = append(c.inbox, a)
}

// onStream takes one stream message on the reader: first the Welcome (or a Reject), then
// pongs and, on the stream lane, snapshots for the driver. A Disconnect ends the session,
// as it ends client.Session.Run.
func (c *thin) onStream(m wire.ServerMessage) error {
	if !c.joined {
		switch m := m.(type) {
		case wire.Welcome:
			c.welcome, c.datagrams, c.newest, c.joined = m, m.Lane == wire.LaneDatagram, m.ServerTick, true
			c.welcomed <- nil
			return nil
		case wire.Reject:
			return &client.RejectedError{Code: m.Code, Reason: m.Reason}
		default:
			return fmt.Errorf("client: expected Welcome, got %T", m)
		}
	}
	now := time.Now()
	switch m := m.(type) {
	case wire.Disconnect:
		return &client.DisconnectedError{Code: m.Code, Reason: m.Reason}
	case wire.Pong:
		c.put(arrival{at: now, pong: max(m.ClientTimeUs, 1)})
	case *wire.Snapshot:
		h := wire.ChunkHead{Tick: m.Tick, Index: m.Index, Count: max(m.Count, 1), Baseline: m.Baseline,
			Unchanged: len(m.Unchanged), Moved: len(m.Moved)}
		for _, t := range m.Tanks {
			if t.ID == c.welcome.PlayerID {
				h.Own, h.OwnAck = true, t.Ack
			}
		}
		c.put(arrival{at: now, head: h})
	}
	return nil
}

// sendFrame sends m on the stream; with flush it leaves now (see link.send).
func (c *thin) sendFrame(m proto.Message, now time.Time, flush bool) error {
	var err error
	if c.frame, err = transport.AppendFrame(c.frame[:0], m); err != nil {
		return err
	}
	return c.link.send(c.frame, now, flush)
}

// goodbye sends a Goodbye with reason; the session's end is then no failure.
func (c *thin) goodbye(reason string) {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	_ = c.sendFrame(wire.ClientMessageToProto(wire.Goodbye{Reason: reason}), time.Now(), true)
}

// close closes the link and waits for its reader; the session's end is then no failure.
func (c *thin) close(reason string) {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.link.close()
	<-c.readDone
}

// clock runs the link's KCP clock at now and ends the session when the server has been
// silent for client.ServerGone or a write failed; it returns whether the link has segments
// unacknowledged (it needs the next KCP interval's pass), and the error that ended it.
func (c *thin) clock(now time.Time) (busy bool, err error) {
	silent, busy, err := c.link.update(now)
	if err == nil && silent > client.ServerGone {
		err = fmt.Errorf("client: lost the server: nothing received for %v", client.ServerGone)
	}
	if err != nil {
		c.mu.Lock()
		if c.ended == nil {
			c.ended = err
		}
		c.mu.Unlock()
	}
	return busy, err
}

// update takes what arrived, recording latencies in m, and when sending on a game pass
// (every 50 ms) sends every input due by now, each on its schedule's 50 ms clock from start,
// and a ping when one is due. It returns the error that ended the session, if it has ended.
func (c *thin) update(now time.Time, m *meter, sending, game bool) error {
	c.mu.Lock()
	c.work, c.inbox = c.inbox, c.work[:0]
	err := c.ended
	c.mu.Unlock()
	for i := range c.work {
		c.receive(&c.work[i], m)
	}
	if err != nil || !sending || !game {
		return err
	}
	if err := c.sendDue(now, m); err != nil {
		return err
	}
	return c.ping(now)
}

// pass is one pass of the driver's clock at now: update, then the KCP clock. It returns
// whether the link needs the next KCP interval's pass, and the error that ended the
// session, if it has ended.
func (c *thin) pass(now time.Time, m *meter, sending, game bool) (busy bool, err error) {
	if err := c.update(now, m, sending, game); err != nil {
		return false, err
	}
	return c.clock(now)
}

// receive takes one arrival.
func (c *thin) receive(a *arrival, m *meter) {
	if a.pong != 0 {
		// The ping carried its intended send time; the round trip counts from it.
		m.rtt.Record(a.at.Sub(time.UnixMicro(int64(a.pong))))
		return
	}
	h := &a.head
	if !c.arrivals.chunk(h.Tick, h.Index, h.Count) {
		return
	}
	m.chunks++
	if h.Own {
		c.own(a.at, h.OwnAck, m)
	}
	c.arrivals.settle(h.Tick, !c.arrivals.rebuildable(h))
}

// own takes our tank's acknowledged move tick, which arrived at at: the inputs it
// acknowledges for the first time were applied, and each one's latency counts from when it
// was meant to leave.
func (c *thin) own(at time.Time, ack uint32, m *meter) {
	if c.first == 0 {
		c.first, c.next, c.acked = ack+1, ack+1, ack
		return // the schedule starts at the driver's next pass (sendDue)
	}
	if ack < c.acked {
		c.ackBackwards++
		return
	}
	for k := c.acked + 1; k <= ack && k < c.next; k++ {
		m.input.Record(at.Sub(c.intent[k%sentSlots]))
	}
	c.acked = ack
}

// intended returns when move tick k is meant to leave.
func (c *thin) intended(k uint32) time.Time {
	return c.start.Add(time.Duration(k-c.first) * netcode.StepInterval)
}

// sendDue sends every move whose intended time has come, then one InputBatch repeating the
// unacknowledged ones with the snapshot acknowledgement (on the datagram lane).
func (c *thin) sendDue(now time.Time, m *meter) error {
	if c.first == 0 {
		return nil
	}
	if c.start.IsZero() {
		c.start = now // the first input leaves on this pass, the rest on the driver's clock
	}
	sent := false
	for ; !c.intended(c.next).After(now); c.next++ {
		p := netcode.PendingInput{Tick: c.next, Input: c.script(c.next), Duration: netcode.StepInterval}
		frame, err := c.moves.Encode(p)
		if err == nil {
			err = c.link.send(frame, now, true)
		}
		if err != nil {
			return err
		}
		c.intent[c.next%sentSlots] = c.intended(c.next)
		if len(c.recent) == repeatedInputs {
			c.recent = c.recent[:copy(c.recent, c.recent[1:])]
		}
		c.recent = append(c.recent, p)
		m.inputs++
		sent = true
	}
	if !sent || !c.datagrams {
		return nil
	}
	c.batch = c.batch[:0]
	for _, p := range c.recent {
		if p.Tick > c.acked {
			c.batch = append(c.batch, p)
		}
	}
	tick, mask := c.arrivals.ack()
	b, err := c.enc.Encode(c.batch, tick, mask)
	if err != nil {
		return err
	}
	// A datagram that cannot leave is lost like any other: only a closed session is an error.
	if err := c.link.sendDatagram(b); err != nil && !errors.Is(err, transport.ErrDatagramTooLarge) {
		return err
	}
	return nil
}

// ping sends a Ping on a pingEvery schedule; a round trip counts from its intended time.
func (c *thin) ping(now time.Time) error {
	if c.nextPing.IsZero() {
		c.nextPing = now
	}
	if now.Before(c.nextPing) {
		return nil
	}
	at := c.nextPing
	for !c.nextPing.After(now) {
		c.nextPing = c.nextPing.Add(pingEvery)
	}
	return c.sendFrame(wire.ClientMessageToProto(wire.Ping{ClientTimeUs: uint64(at.UnixMicro())}), now, true)
}

// unapplied returns how many inputs sent the server has not acknowledged.
func (c *thin) unapplied() uint32 {
	if c.first == 0 {
		return 0
	}
	return c.next - 1 - c.acked
}
