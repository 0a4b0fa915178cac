package load

import (
	"context"
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"tanknet/client"
	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
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

// thin is one thin client: its connection and what it needs to speak the protocol and check
// the server, nothing more. Its driver goroutine calls update; the connection's receive
// goroutine (datagrams) and the client's stream reader only add to its inbox.
type thin struct {
	conn      *transport.Conn
	count     *transport.CountingConn // its socket, counted
	welcome   wire.Welcome
	script    Script
	datagrams bool

	mu     sync.Mutex
	inbox  []arrival // what arrived since the driver's last pass
	ended  error     // why the session ended; nil while it runs
	closed bool      // Close was called: the reader's error is not a failure

	// The datagram handler's own.
	newest  uint32        // the newest chunk tick taken, to refuse far-future ones
	bad     atomic.Uint64 // datagrams that are no acceptable chunk
	dropped atomic.Uint64 // arrivals the full inbox had no room for

	// The driver's own.
	work   []arrival
	start  time.Time // the intended send time of move tick first
	first  uint32    // the first move tick; 0 until the client has seen its tank
	next   uint32    // the next move tick to send
	acked  uint32    // the newest move tick the server said it applied
	intent [sentSlots]time.Time
	recent []netcode.PendingInput // the newest inputs sent, for the InputBatch
	batch  []netcode.PendingInput
	enc    wire.BatchEncoder    // the InputBatch datagram's message and buffer
	move   tankv1.ClientMessage // the MoveInput envelope, reused
	moveIn tankv1.MoveInput

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

// dialThin joins a thin client to addr as name into room over pc (nil: a new socket) and
// starts reading its datagrams; its stream reader is run's (readStream).
func dialThin(ctx context.Context, addr, name, room string, pc *transport.CountingConn, timeout time.Duration, script Script) (*thin, error) {
	var socket net.PacketConn // nil, not a nil *CountingConn, for a new socket
	if pc != nil {
		socket = pc
	}
	conn, w, err := client.Join(ctx, addr, name, room, socket, timeout)
	if err != nil {
		return nil, err
	}
	c := &thin{conn: conn, count: pc, welcome: w, script: script, datagrams: w.Lane == wire.LaneDatagram,
		newest: w.ServerTick}
	c.move.Kind = &tankv1.ClientMessage_MoveInput{MoveInput: &c.moveIn}
	if c.datagrams {
		conn.OnDatagram(c.onDatagram)
	}
	return c, nil
}

// onDatagram takes one datagram on the connection's receive goroutine: it reads the chunk's
// head and our own tank's acknowledgement (wire.ScanChunk) and leaves them for the driver.
func (c *thin) onDatagram(b []byte) {
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

// readStream reads the reliable stream until the session ends: pongs and, on the stream
// lane, snapshots go to the driver; a Disconnect, a message that fails package wire's
// checks or a silence of client.ServerGone ends the session, as client.Session.Run does.
func (c *thin) readStream() {
	var in wire.FromServer
	for {
		err := c.conn.Recv(in.Target(), transport.IdleTimeout)
		if err == nil {
			var m wire.ServerMessage
			if m, err = in.Decode(); err == nil {
				err = c.stream(m)
			}
		} else if transport.IsTimeout(err) && c.conn.SilentFor() < client.ServerGone {
			continue
		}
		if err == nil {
			continue
		}
		c.mu.Lock()
		if c.closed {
			err = nil
		}
		c.ended = err
		c.mu.Unlock()
		c.conn.Close()
		return
	}
}

// stream takes one stream message; it returns the error that ends the session, if any.
func (c *thin) stream(m wire.ServerMessage) error {
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

// close says goodbye and closes the connection; the reader then ends without an error.
func (c *thin) close(reason string) {
	c.mu.Lock()
	already := c.closed
	c.closed = true
	c.mu.Unlock()
	if !already {
		_ = c.conn.Send(wire.ClientMessageToProto(wire.Goodbye{Reason: reason}))
	}
	c.conn.Close()
}

// update takes what arrived, recording latencies in m, and when sending sends every input
// due by now, each on its schedule's 50 ms clock from start, and a ping when one is due. It
// returns the error that ended the session, if it has ended.
func (c *thin) update(now time.Time, m *meter, sending bool) error {
	c.mu.Lock()
	c.work, c.inbox = c.inbox, c.work[:0]
	err := c.ended
	c.mu.Unlock()
	for i := range c.work {
		c.receive(&c.work[i], m)
	}
	if err != nil || !sending {
		return err
	}
	if err := c.sendDue(now, m); err != nil {
		return err
	}
	return c.ping(now, m)
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
		wire.FillMove(&c.moveIn, p)
		if err := c.conn.Send(&c.move); err != nil {
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
	if err := c.conn.SendDatagram(b); err != nil && !errors.Is(err, transport.ErrDatagramTooLarge) {
		return err
	}
	return nil
}

// ping sends a Ping on a pingEvery schedule; a round trip counts from its intended time.
func (c *thin) ping(now time.Time, m *meter) error {
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
	return c.conn.Send(wire.ClientMessageToProto(wire.Ping{ClientTimeUs: uint64(at.UnixMicro())}))
}

// unapplied returns how many inputs sent the server has not acknowledged.
func (c *thin) unapplied() uint32 {
	if c.first == 0 {
		return 0
	}
	return c.next - 1 - c.acked
}
