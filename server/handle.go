package server

import (
	"context"
	"fmt"

	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
)

// handle runs one connection from handshake to goodbye. It is the only reader of the
// session's connection. handshakeDone is called once the handshake has ended either way.
func (s *Server) handle(ctx context.Context, sess *session, handshakeDone func()) {
	defer sess.close()
	addr := sess.conn.RemoteAddr().String()

	id, ok := s.handshake(ctx, sess, addr)
	handshakeDone()
	if !ok {
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

	reason, dropped := s.readLoop(sess, id)
	if kicked := sess.kickReason(); kicked != "" {
		reason, dropped = kicked, true // the server's own decision (e.g. a full queue) explains it best
	} else if dropped {
		s.log.Warn("dropping player", "player", id, "addr", addr, "reason", reason)
		sess.kick(reason)
	} else {
		sess.close()
	}
	if err := <-writeErr; err != nil {
		reason, dropped = "cannot keep up: "+err.Error(), true
		s.log.Warn("dropping player", "player", id, "addr", addr, "reason", reason)
	}
	sess.close()
	select {
	case s.leaves <- leaveNote{id: id, reason: reason, dropped: dropped}:
	case <-ctx.Done():
	}
}

// handshake reads the Hello, asks the world for a seat and answers Welcome (queued by the
// world) or Reject. It reports the player id and whether the player is in.
func (s *Server) handshake(ctx context.Context, sess *session, addr string) (uint32, bool) {
	var m tankv1.ClientMessage
	reject := func(code tankv1.RejectCode, reason string) (uint32, bool) {
		s.stats.reject(rejectLabel(code))
		s.log.Warn("rejecting client", "addr", addr, "reason", reason)
		_ = sess.conn.Send(&tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Reject{Reject: &tankv1.Reject{Code: code, Reason: reason}}})
		return 0, false
	}
	if err := sess.conn.Recv(&m, s.cfg.HelloTimeout); err != nil {
		reason, protocol := readErrorReason(err, s.cfg.HelloTimeout)
		if protocol {
			s.stats.badFrames.Add(1)
		}
		return reject(tankv1.RejectCode_REJECT_CODE_BAD_HELLO, "handshake failed: "+reason)
	}
	hello := m.GetHello()
	switch {
	case hello == nil:
		return reject(tankv1.RejectCode_REJECT_CODE_BAD_HELLO, fmt.Sprintf("first message must be Hello, got %s", kindName(&m)))
	case hello.GetProtocolVersion() != transport.ProtocolVersion:
		return reject(tankv1.RejectCode_REJECT_CODE_VERSION_MISMATCH,
			fmt.Sprintf("protocol version %d not supported (want %d)", hello.GetProtocolVersion(), transport.ProtocolVersion))
	}
	req := joinRequest{sess: sess, hello: hello, reply: make(chan joinReply, 1)}
	select {
	case s.joins <- req:
	case <-ctx.Done():
		return reject(tankv1.RejectCode_REJECT_CODE_SHUTTING_DOWN, "server shutting down")
	}
	reply := <-req.reply
	if reply.reject != nil {
		s.log.Warn("rejecting client", "addr", addr, "reason", reply.reject.GetReason())
		_ = sess.conn.Send(&tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Reject{Reject: reply.reject}})
		return 0, false
	}
	s.log.Info("client connected", "player", reply.id, "addr", addr)
	return reply.id, true
}

// readLoop decodes client messages until the connection ends, and returns why it ended and
// whether that is the server dropping the client.
func (s *Server) readLoop(sess *session, id uint32) (reason string, dropped bool) {
	var m tankv1.ClientMessage
	for {
		if err := sess.conn.Recv(&m, s.cfg.IdleTimeout); err != nil {
			reason, protocol := readErrorReason(err, s.cfg.IdleTimeout)
			if protocol {
				s.stats.badFrames.Add(1)
			}
			return reason, reason != "connection closed"
		}
		switch k := m.GetKind().(type) {
		case *tankv1.ClientMessage_MoveInput:
			if !sess.pushInput(transport.MoveFromProto(k.MoveInput)) {
				s.stats.inputsRefused.add(ruleInboxFull)
				return fmt.Sprintf("protocol error: more than %d inputs in one tick", sess.maxInbox), true
			}
		case *tankv1.ClientMessage_Ping:
			sess.send(encode(s.log, &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Pong{Pong: &tankv1.Pong{
				ClientTimeUs: k.Ping.GetClientTimeUs(), ServerTick: s.tick.Load()}}}))
		case *tankv1.ClientMessage_Goodbye:
			return "goodbye: " + k.Goodbye.GetReason(), false
		case *tankv1.ClientMessage_Hello:
			return "protocol error: second Hello", true
		default:
			s.stats.badFrames.Add(1)
			return "protocol error: unknown message kind", true
		}
	}
}

// kindName names the message kind in m for error messages.
func kindName(m *tankv1.ClientMessage) string {
	if m.GetKind() == nil {
		return "an empty or unknown message"
	}
	return fmt.Sprintf("%T", m.GetKind())
}
