package load

import (
	"time"

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

// thin is one thin client: its session and what it needs to speak the protocol and check
// the server, nothing more. One driver goroutine calls its methods.
type thin struct {
	sess      *client.Session
	count     *transport.CountingConn // its socket, counted
	welcome   wire.Welcome
	script    Script
	datagrams bool

	start  time.Time // the intended send time of move tick first
	first  uint32    // the first move tick; 0 until the client has seen its tank
	next   uint32    // the next move tick to send
	acked  uint32    // the newest move tick the server said it applied
	intent [sentSlots]time.Time
	recent []netcode.PendingInput // the newest inputs sent, for the InputBatch
	batch  []netcode.PendingInput

	bases    wire.Baselines
	arrivals arrivals
	recv     []client.Received
	nextPing time.Time

	ackBackwards uint64 // states whose acknowledged tick went back: an input applied twice or lost
	err          error  // why the session ended, if it has
}

func newThin(sess *client.Session, script Script) *thin {
	w := sess.Welcome()
	return &thin{sess: sess, welcome: w, script: script, datagrams: w.Lane == wire.LaneDatagram}
}

// update takes what arrived, recording latencies in m, and when sending sends every input
// due by now, each on its schedule's 50 ms clock from start, and a ping when one is due. It returns the error that ended the
// session, if it has ended.
func (c *thin) update(now time.Time, m *meter, sending bool) error {
	var err error
	c.recv, err = c.sess.Drain(c.recv[:0])
	for i := range c.recv {
		c.receive(c.recv[i], m)
		c.recv[i] = client.Received{}
	}
	if err != nil || !sending {
		return err
	}
	if err := c.sendDue(now, m); err != nil {
		return err
	}
	return c.ping(now, m)
}

// receive takes one server message.
func (c *thin) receive(r client.Received, m *meter) {
	switch msg := r.Msg.(type) {
	case *wire.Snapshot:
		c.snapshot(r.At, msg, m)
	case wire.Pong:
		// The ping carried its intended send time; the round trip counts from it.
		m.rtt.Record(r.At.Sub(time.UnixMicro(int64(msg.ClientTimeUs))))
	}
}

// snapshot takes one snapshot or chunk of one: it rebuilds its tanks (keeping them as
// baselines on the datagram lane) and reads our own tank's acknowledged move tick.
func (c *thin) snapshot(at time.Time, snap *wire.Snapshot, m *meter) {
	index, count := snap.Index, max(snap.Count, 1)
	if !c.arrivals.chunk(snap.Tick, index, count) {
		return
	}
	m.chunks++
	ok := c.bases.Tanks(snap, func(t wire.Tank) {
		if c.datagrams {
			c.bases.Record(snap.Tick, t)
		}
		if t.ID == c.welcome.PlayerID {
			c.own(at, t, m)
		}
	})
	c.arrivals.settle(snap.Tick, !ok)
}

// own takes our tank's state, which arrived at at: the inputs it acknowledges for the first
// time were applied, and each one's latency counts from when it was meant to leave.
func (c *thin) own(at time.Time, t wire.Tank, m *meter) {
	if c.first == 0 {
		c.first, c.next, c.acked = t.Ack+1, t.Ack+1, t.Ack
		return // the schedule starts at the driver's next pass (sendDue)
	}
	if t.Ack < c.acked {
		c.ackBackwards++
		return
	}
	for k := c.acked + 1; k <= t.Ack && k < c.next; k++ {
		m.input.Record(at.Sub(c.intent[k%sentSlots]))
	}
	c.acked = t.Ack
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
		if err := c.sess.Send(wire.Move(p)); err != nil {
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
	return c.sess.Send(wire.InputBatch{Inputs: c.batch, AckTick: tick, AckMask: mask})
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
	return c.sess.Send(wire.Ping{ClientTimeUs: uint64(at.UnixMicro())})
}

// unapplied returns how many inputs sent the server has not acknowledged.
func (c *thin) unapplied() uint32 {
	if c.first == 0 {
		return 0
	}
	return c.next - 1 - c.acked
}
