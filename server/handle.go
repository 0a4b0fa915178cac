package server

import (
	"context"
	"fmt"
	"time"

	"tanknet/netcode"
	"tanknet/transport"
	"tanknet/wire"
)

// handle runs one connection from handshake to goodbye. It is the only reader of the
// session's connection. op is how it began (see Server.open).
func (s *Server) handle(ctx context.Context, sess *session, op opening) {
	defer sess.close()
	addr := sess.conn.RemoteAddr().String()

	id, r := s.handshake(ctx, sess, addr, op)
	if r == nil {
		return
	}
	writeErr := make(chan error, 1)
	go func() {
		err := sess.writeLoop()
		if err != nil {
			sess.close() // a client that cannot take our bytes is gone: stop reading it too
		}
		writeErr <- err
	}()

	left, drop := s.readLoop(sess, id, r)
	if kicked := sess.kickReason(); kicked.dropping() {
		drop = kicked // the server's own decision (e.g. a full queue) explains it best
		if sess.overflowed() {
			s.log.Warn("dropping player", "player", id, "addr", addr, "reason", drop.String(), "code", drop.kind.code.String())
		}
	} else if drop.dropping() {
		s.log.Warn("dropping player", "player", id, "addr", addr, "reason", drop.String(), "code", drop.kind.code.String())
		sess.kick(drop)
	} else {
		sess.close()
	}
	if err := <-writeErr; err != nil && !drop.dropping() { // the first cause explains it
		drop = dropSlow.reason(err.Error())
		s.log.Warn("dropping player", "player", id, "addr", addr, "reason", drop.String(), "code", drop.kind.code.String())
	}
	sess.close()
	select {
	case r.leaves <- leaveNote{id: id, left: left, drop: drop}:
	case <-r.done: // the room dropped the player itself, then closed
	case <-ctx.Done():
	}
}

// handshake reads the Hello, finds or opens its room, waits in the join queue for the
// room's game to seat it and answers Welcome (queued by the game) or Reject. It reports the
// player id and its room, nil when the player is not in. When op has no first message yet, it waits for one, then calls op.heard: from then
// on the session is no longer a silent one that a newer connection may evict (heard
// returning false means it was evicted meanwhile).
func (s *Server) handshake(ctx context.Context, sess *session, addr string, op opening) (uint32, *room) {
	hello, name, refused, heard := s.readHello(sess, op)
	switch {
	case !heard:
		return 0, nil // evicted and closed: nobody to answer
	case refused == nil && s.Draining():
		refused = &wire.Reject{Code: wire.RejectShuttingDown, Reason: drainedReason}
	}
	if refused != nil {
		s.stats.reject(refused.Code.String())
		s.log.Warn("rejecting client", "addr", addr, "reason", refused.Reason)
		_ = sess.conn.Send(wire.ServerMessageToProto(*refused))
		return 0, nil
	}
	return s.seat(ctx, sess, addr, hello, name)
}

// readHello reads the session's first message (op's, when it came with the connection) and
// checks it is a Hello of our protocol naming a valid room; refused says why not. heard is
// false when the session was evicted meanwhile.
func (s *Server) readHello(sess *session, op opening) (hello wire.Hello, room string, refused *wire.Reject, heard bool) {
	bad := func(reason string) *wire.Reject { return &wire.Reject{Code: wire.RejectBadHello, Reason: reason} }
	m, err := op.first, op.err
	if m == nil && err == nil {
		m = new(wire.FromClient)
		err = sess.conn.Recv(m.Target(), s.cfg.HelloTimeout)
	}
	if !op.heard() {
		return hello, "", nil, false
	}
	if err != nil {
		drop := readError(err, s.cfg.HelloTimeout)
		reason := closedReason
		if drop.dropping() {
			reason = drop.String()
		}
		if drop.kind == dropProtocol {
			s.stats.badFrames.Add(1)
		}
		return hello, "", bad("handshake failed: " + reason), true
	}
	decoded := m.Decode()
	hello, isHello := decoded.(wire.Hello)
	switch {
	case !isHello:
		if strayOnTheStream(decoded) {
			s.stats.badFrames.Add(1)
		}
		return hello, "", bad(fmt.Sprintf("first message must be Hello, got %s", m.Kind())), true
	case hello.ProtocolVersion != transport.ProtocolVersion:
		r := wire.VersionMismatch(hello.ProtocolVersion)
		return hello, "", &r, true
	}
	room, err = roomName(hello.Room)
	if err != nil {
		return hello, "", bad(err.Error()), true
	}
	return hello, room, nil, true
}

// seat asks room name to seat hello's player, opening the room if it must, and answers the
// client when it is refused; it returns the player's id and room, 0 and nil when refused.
func (s *Server) seat(ctx context.Context, sess *session, addr string, hello wire.Hello, name string) (uint32, *room) {
	refuse := func(r wire.Reject) (uint32, *room) {
		s.log.Warn("rejecting client", "addr", addr, "reason", r.Reason)
		_ = sess.conn.Send(wire.ServerMessageToProto(r))
		return 0, nil
	}
	counted := func(r wire.Reject) (uint32, *room) { s.stats.reject(r.Code.String()); return refuse(r) }
	if n := s.queued.Add(1); int(n) > s.cfg.queuedJoins() {
		s.queued.Add(-1)
		return counted(wire.Reject{Code: wire.RejectBusy,
			Reason: fmt.Sprintf("server busy: %d joins already waiting for a seat; try again in a second", n-1)})
	}
	defer s.queued.Add(-1)
	r, refused := s.enter(name, sess.conn.RemoteAddr(), time.Now(), func(r *room) { go s.runRoom(ctx, r) })
	if refused != nil {
		return counted(*refused)
	}
	defer s.settle(r)
	req := joinRequest{sess: sess, hello: hello, reply: make(chan joinReply, 1)}
	select {
	case r.joins <- req:
	case <-ctx.Done():
		return counted(wire.Reject{Code: wire.RejectShuttingDown, Reason: "server shutting down"})
	}
	reply := <-req.reply
	if reply.reject != nil {
		return refuse(*reply.reject) // counted by the room
	}
	sess.joined.Store(true)
	if name != DefaultRoom {
		s.log.Info("client connected", "player", reply.id, "addr", addr, "room", name)
	} else {
		s.log.Info("client connected", "player", reply.id, "addr", addr)
	}
	return reply.id, r
}

// readLoop decodes client messages until the connection ends, and returns why it ended:
// the client's own leaving in words, or the server's reason to drop it.
func (s *Server) readLoop(sess *session, id uint32, r *room) (left string, drop dropReason) {
	var in wire.FromClient
	pings := pingAllowance{tokens: maxPingBurst, at: time.Now()}
	// Wake at least once per ack timeout, so a client that talks only on the datagram lane
	// (never on the stream) is still checked for acknowledging.
	usual := min(s.cfg.IdleTimeout, s.cfg.AckTimeout)
	wait := usual
	for {
		err := sess.conn.Recv(in.Target(), wait)
		wait = usual
		idle, ackLimit := sess.limits(&s.cfg)
		stall := sess.conn.AckStall()
		if stall >= ackLimit {
			return "", dropNoAck.reason(fmt.Sprintf("nothing acknowledged for %v", ackLimit)) // the limit, as a timeout names its own
		}
		if err != nil {
			if silent := sess.conn.SilentFor(); transport.IsTimeout(err) && silent < idle {
				// Its packets arrive; only the stream is stalled behind a loss, or quiet (or it
				// is away). Wake again when either limit would be reached, so a client that
				// falls silent now is dropped idle after its last packet, not up to a wait later.
				wait = transport.WaitWithin(transport.WaitWithin(usual, idle, silent), ackLimit, stall)
				continue
			}
			if transport.IsTimeout(err) && s.heart.pausedRecently(time.Now(), s.cfg.IdleTimeout) {
				continue // the server itself was stopped: its socket's backlog is the client's packets
			}
			drop := readError(err, idle)
			if !drop.dropping() {
				return closedReason, dropReason{}
			}
			if drop.kind == dropProtocol {
				s.stats.badFrames.Add(1)
			}
			return "", drop
		}
		switch m := in.Decode().(type) {
		case wire.Move:
			if !sess.pushInput(netcode.PendingInput(m)) {
				s.stats.inputsRefused.add(ruleInboxFull)
				return "", dropProtocol.reason(fmt.Sprintf("more than %d inputs in one tick", maxStreamInputsPerTick))
			}
		case wire.InputMode:
			sess.setInputMode(m.OnArrival)
		case wire.Away:
			sess.pushAway(m.LastMoveTick)
		case wire.Fire:
			if !sess.pushFire(netcode.ShotRequest(m)) {
				s.stats.firesDropped.Add(1)
			}
		case wire.Ping:
			if !pings.take(time.Now()) {
				s.stats.pingsIgnored.Add(1)
				continue
			}
			sess.send(encode(s.log, wire.Pong{ClientTimeUs: m.ClientTimeUs, ServerTick: r.tick.Load()}))
		case wire.Goodbye:
			return "goodbye: " + m.Reason, dropReason{}
		case wire.Hello:
			return "", dropProtocol.reason("second Hello")
		case wire.InputBatch:
			s.stats.badFrames.Add(1)
			return "", dropProtocol.reason("InputBatch on the stream (it is a datagram)")
		default: // nil: an empty envelope, or a kind this version does not know
			s.stats.badFrames.Add(1)
			return "", dropProtocol.reason("unknown message kind")
		}
	}
}

// strayOnTheStream reports whether a message decoded from a client's stream is none the
// stream carries (each one counts as a bad frame, as an undecodable frame does): an empty
// envelope or a kind this version does not know (nil), or an InputBatch, which travels
// only as a datagram.
func strayOnTheStream(m any) bool {
	switch m.(type) {
	case nil, wire.InputBatch:
		return true
	}
	return false
}

// The Ping rate the server answers: a client may probe its latency often, but each Pong
// costs the server a control frame, so Pings beyond this rate are ignored (and counted).
const (
	maxPingsPerSecond = 10 // what docs/PROTOCOL.md allows; the Go client sends 2
	maxPingBurst      = 10 // a second's worth at once, for a client catching up after a hitch
)

// pingAllowance is a token bucket of Pings: maxPingBurst tokens, refilled at
// maxPingsPerSecond.
type pingAllowance struct {
	tokens float64
	at     time.Time // when tokens was last refilled
}

// take reports whether a Ping arriving at now may be answered, and spends a token if so.
func (a *pingAllowance) take(now time.Time) bool {
	a.tokens = min(maxPingBurst, a.tokens+now.Sub(a.at).Seconds()*maxPingsPerSecond)
	a.at = now
	if a.tokens < 1 {
		return false
	}
	a.tokens--
	return true
}
