package server_test

import (
	"context"
	"math"
	"net"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"tanknet/client"
	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/server"
	"tanknet/transport"
	"tanknet/wire"
)

// rawClient speaks the protocol by hand, so a test can send what no real client would.
type rawClient struct {
	t      *testing.T
	conn   *transport.Conn
	id     uint32
	chunks chan *tankv1.Snapshot // snapshot chunks from the datagram lane
}

func dialRaw(t *testing.T, addr string) *rawClient { return dialRawOver(t, addr, nil) }

// dialRawOver is dialRaw over pc (nil: a new socket).
func dialRawOver(t *testing.T, addr string, pc net.PacketConn) *rawClient {
	t.Helper()
	conn, err := transport.Dial(addr, pc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	r := &rawClient{t: t, conn: conn, chunks: make(chan *tankv1.Snapshot, 64)}
	conn.OnDatagram(func(b []byte) {
		var m tankv1.ServerMessage
		if transport.DecodeDatagram(b, &m) == nil && m.GetSnapshot() != nil {
			select {
			case r.chunks <- m.GetSnapshot():
			default: // nobody is waiting for snapshots: drop, as the lane may
			}
		}
	})
	return r
}

// sendDatagram sends b as one datagram.
func (r *rawClient) sendDatagram(b []byte) {
	r.t.Helper()
	if err := r.conn.SendDatagram(b); err != nil {
		r.t.Fatal(err)
	}
}

func (r *rawClient) send(m *tankv1.ClientMessage) {
	r.t.Helper()
	if err := r.conn.Send(m); err != nil {
		r.t.Fatal(err)
	}
}

func (r *rawClient) sendRaw(b []byte) {
	r.t.Helper()
	if err := r.conn.SendFrame(b); err != nil {
		r.t.Fatal(err)
	}
}

// next returns the next server message that is not a snapshot or roster change.
func (r *rawClient) next() *tankv1.ServerMessage {
	r.t.Helper()
	for range 1000 { // bounded: at most 50 s of snapshots
		m := new(tankv1.ServerMessage)
		if err := r.conn.Recv(m, 5*time.Second); err != nil {
			r.t.Fatalf("waiting for the server's answer: %v", err)
		}
		switch m.GetKind().(type) {
		case *tankv1.ServerMessage_Snapshot, *tankv1.ServerMessage_RosterUpdate:
			continue
		}
		return m
	}
	r.t.Fatal("no answer among 1000 messages")
	return nil
}

// ownState returns this client's state from the next snapshot (whole on the stream, or a
// datagram chunk) that has one with ack >= ack, waiting at most 5 s.
func (r *rawClient) ownState(ack uint32) netcode.State {
	r.t.Helper()
	find := func(snap *tankv1.Snapshot) (netcode.State, bool) {
		for _, ps := range snap.GetPlayers() {
			if ps.GetPlayerId() == r.id && ps.GetAcknowledgedMoveTick() >= ack {
				return wire.StateFromProto(ps), true
			}
		}
		return netcode.State{}, false
	}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		select {
		case snap := <-r.chunks:
			if st, ok := find(snap); ok {
				return st
			}
			continue
		default:
		}
		m := new(tankv1.ServerMessage)
		if err := r.conn.Recv(m, 10*time.Millisecond); transport.IsTimeout(err) {
			continue
		} else if err != nil {
			r.t.Fatalf("waiting for a snapshot: %v", err)
		}
		if d := m.GetDisconnect(); d != nil {
			r.t.Fatalf("disconnected while waiting for a snapshot: %s", d.GetReason())
		}
		if st, ok := find(m.GetSnapshot()); ok {
			return st
		}
	}
	r.t.Fatal("no snapshot with our state within 5 s")
	return netcode.State{}
}

func hello(version uint32) *tankv1.ClientMessage {
	return &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Hello{Hello: &tankv1.Hello{ProtocolVersion: version, Name: "raw"}}}
}

func move(tick uint32, turn, throttle float64, ms uint32) *tankv1.ClientMessage {
	return &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_MoveInput{MoveInput: &tankv1.MoveInput{
		Tick: tick, Turn: turn, Throttle: throttle, DurationMs: ms}}}
}

// join handshakes and returns the client's first state.
func (r *rawClient) join() netcode.State {
	r.t.Helper()
	r.send(hello(transport.ProtocolVersion))
	w := r.next().GetWelcome()
	if w == nil {
		r.t.Fatal("no Welcome")
	}
	r.id = w.GetPlayerId()
	return r.ownState(0)
}

// oversized is a frame whose length prefix claims 1 MiB.
var oversized = append(protowire.AppendVarint(nil, 1<<20), 0x0a, 0x00)

// TestBadInput_OthersUnaffected throws every kind of bad input at one server while a
// well-behaved bot plays on it, and checks each offender gets a clear answer and the bot
// notices nothing.
func TestBadInput_OthersUnaffected(t *testing.T) {
	addr, srv := startServer(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	botDone := startBystander(ctx, addr)

	rejects := []struct {
		name   string
		send   func(r *rawClient)
		code   tankv1.RejectCode
		reason string
	}{
		{"garbage bytes", func(r *rawClient) { r.sendRaw([]byte("\x05\xff\xff\xff\xff\xff")) }, tankv1.RejectCode_REJECT_CODE_BAD_HELLO, "bad frame"},
		{"oversized frame", func(r *rawClient) { r.sendRaw(oversized) }, tankv1.RejectCode_REJECT_CODE_BAD_HELLO, "exceeds maximum size"},
		{"wrong protocol version", func(r *rawClient) { r.send(hello(7)) }, tankv1.RejectCode_REJECT_CODE_VERSION_MISMATCH, "protocol version 7 not supported (want 2)"},
		{"input before hello", func(r *rawClient) { r.send(move(1, 0, 1, 50)) }, tankv1.RejectCode_REJECT_CODE_BAD_HELLO, "first message must be Hello"},
	}
	for _, tt := range rejects {
		t.Run("handshake/"+tt.name, func(t *testing.T) {
			r := dialRaw(t, addr)
			tt.send(r)
			rej := r.next().GetReject()
			if rej.GetCode() != tt.code || !strings.Contains(rej.GetReason(), tt.reason) {
				t.Errorf("reject = %v, want %v mentioning %q", rej, tt.code, tt.reason)
			}
		})
	}

	drops := []struct {
		name   string
		send   func(r *rawClient)
		reason string
	}{
		{"NaN input", func(r *rawClient) { r.send(move(1, math.NaN(), 1, 50)) }, "not a finite number"},
		{"infinite input", func(r *rawClient) { r.send(move(1, 0, math.Inf(1), 50)) }, "not a finite number"},
		{"tick far in the future", func(r *rawClient) { r.send(move(1_000_000, 0, 1, 50)) }, "ahead of the last applied tick"},
		{"huge duration", func(r *rawClient) { r.send(move(1, 0, 1, 60_000)) }, "duration"},
		{"garbage bytes", func(r *rawClient) { r.sendRaw([]byte("\x04\xde\xad\xbe\xef")) }, "bad frame"},
		{"oversized frame", func(r *rawClient) { r.sendRaw(oversized) }, "exceeds maximum size"},
		{"unknown message kind", func(r *rawClient) { r.send(&tankv1.ClientMessage{}) }, "unknown message kind"},
		{"second hello", func(r *rawClient) { r.send(hello(transport.ProtocolVersion)) }, "second Hello"},
	}
	for _, tt := range drops {
		t.Run("in game/"+tt.name, func(t *testing.T) {
			r := dialRaw(t, addr)
			r.join()
			tt.send(r)
			d := r.next().GetDisconnect()
			if d.GetCode() != tankv1.DisconnectCode_DISCONNECT_CODE_PROTOCOL_ERROR ||
				!strings.HasPrefix(d.GetReason(), "protocol error: ") || !strings.Contains(d.GetReason(), tt.reason) {
				t.Errorf("disconnect = %v, want code PROTOCOL_ERROR and a protocol error mentioning %q", d, tt.reason)
			}
		})
	}

	t.Run("in game/huge goodbye reason is cut, not repeated", func(t *testing.T) {
		watcher := dialRaw(t, addr)
		watcher.join()
		r := dialRaw(t, addr)
		r.join()
		reason := strings.Repeat("z", 16000) // a legal frame, far too long to echo to everyone
		r.send(&tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Goodbye{Goodbye: &tankv1.Goodbye{Reason: reason}}})
		for range 1000 { // bounded: the watcher's stream until the PlayerLeft
			m := new(tankv1.ServerMessage)
			if err := watcher.conn.Recv(m, 5*time.Second); err != nil {
				t.Fatalf("watcher: %v (did the server survive?)", err)
			}
			for _, left := range m.GetRosterUpdate().GetLeft() {
				if left.GetPlayerId() != r.id {
					continue
				}
				if n := len(left.GetReason()); n > 200 || !strings.HasPrefix(left.GetReason(), "goodbye: zzz") {
					t.Errorf("PlayerLeft reason has %d bytes (%.20q...), want a goodbye cut to at most 200", n, left.GetReason())
				}
				return
			}
		}
		t.Error("watcher never saw the player leave")
	})

	t.Run("in game/out-of-range input is clamped, not dropped", func(t *testing.T) {
		r := dialRaw(t, addr)
		start := r.join()
		r.send(move(start.Ack+1, 5, 9, 50))
		got := r.ownState(start.Ack + 1)
		arena := srv.Arena()
		want := netcode.Simulate(&arena, start.Pose, netcode.Input{Turn: 1, Throttle: 1}, 50*time.Millisecond)
		if got.Pose != want {
			t.Errorf("pose after turn 5 throttle 9 = %v, want %v (as turn 1 throttle 1)", got.Pose, want)
		}
	})

	res := <-botDone // the bot plays its two seconds while, and after, the others misbehave
	checkUndisturbed(t, res)
	st := srv.Stats()
	if st.Ticks == 0 || st.Rejects < uint64(len(rejects)) || st.Drops < uint64(len(drops)) || st.InputsClamped < 1 {
		t.Errorf("server stats %+v: want >= %d rejects, >= %d drops, >= 1 clamped input", st, len(rejects), len(drops))
	}
	// Each reason is counted under its label, for the metrics endpoint.
	for _, c := range []struct {
		what   string
		counts map[string]uint64
		label  string
		least  uint64
	}{
		{"rejects", st.RejectsByCode, "bad_hello", 3}, {"rejects", st.RejectsByCode, "version_mismatch", 1},
		{"drops", st.DropsByReason, "protocol_error", uint64(len(drops))},
		{"refused inputs", st.InputsRefused, "not_finite", 2}, {"refused inputs", st.InputsRefused, "too_far_ahead", 1},
		{"refused inputs", st.InputsRefused, "duration", 1},
	} {
		if c.counts[c.label] < c.least {
			t.Errorf("%s[%q] = %d, want >= %d (all: %v)", c.what, c.label, c.counts[c.label], c.least, c.counts)
		}
	}
}

// TestBadInput_SilentFloodCannotLockOut opens many sessions that never finish their Hello,
// more than the handshake cap; the oldest are evicted (connections younger than the grace
// for a Hello may take the count up to twice the cap), and an honest client still joins.
func TestBadInput_SilentFloodCannotLockOut(t *testing.T) {
	const slots, flood = 2, 10
	addr, srv := startServer(t, func(c *server.Config) { c.MaxHandshakes = slots })
	for range flood {
		dialRaw(t, addr).sendRaw([]byte{0x07}) // a length prefix, then silence
	}
	deadline := time.Now().Add(10 * time.Second)
	for st := srv.Stats(); st.Evicted < flood-2*slots; st = srv.Stats() {
		if time.Now().After(deadline) {
			t.Fatalf("server stats %+v: want at least %d silent handshakes evicted", st, flood-2*slots)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if st := srv.Stats(); st.Handshaking > 2*slots {
		t.Errorf("%d handshakes in progress, want at most %d", st.Handshaking, 2*slots)
	}
	sess, err := client.Dial(context.Background(), addr, "honest", nil, 5*time.Second)
	if err != nil {
		t.Fatalf("honest client during a flood of silent sessions: %v", err)
	}
	sess.Close("done")
}

// TestBadInput_BadFramesCountWhatTheStreamDoesNotCarry: tanknet_bad_frames_total (PROTOCOL.md
// §11) counts each stream frame that carries no message the stream takes, as a connection's
// first message as later: an undecodable one, an empty envelope (§2: an unknown kind), an
// InputBatch (a datagram, §1.4). A message of a kind the stream carries, where it does not
// belong (a MoveInput before the Hello, a second Hello), is refused but is no bad frame.
func TestBadInput_BadFramesCountWhatTheStreamDoesNotCarry(t *testing.T) {
	addr, srv := startServer(t, nil)
	batch := &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_InputBatch{InputBatch: &tankv1.InputBatch{}}}
	cases := []struct {
		name   string
		joined bool // sent after the Welcome; else as the first message
		send   func(r *rawClient)
		bad    uint64
	}{
		{"first: garbage bytes", false, func(r *rawClient) { r.sendRaw([]byte("\x05\xff\xff\xff\xff\xff")) }, 1},
		{"first: empty envelope", false, func(r *rawClient) { r.send(&tankv1.ClientMessage{}) }, 1},
		{"first: InputBatch", false, func(r *rawClient) { r.send(batch) }, 1},
		{"first: MoveInput", false, func(r *rawClient) { r.send(move(1, 0, 1, 50)) }, 0},
		{"in game: empty envelope", true, func(r *rawClient) { r.send(&tankv1.ClientMessage{}) }, 1},
		{"in game: InputBatch", true, func(r *rawClient) { r.send(batch) }, 1},
		{"in game: second Hello", true, func(r *rawClient) { r.send(hello(transport.ProtocolVersion)) }, 0},
	}
	for _, tt := range cases {
		r := dialRaw(t, addr)
		if tt.joined {
			r.join()
		}
		before := srv.Stats().BadFrames
		tt.send(r)
		m := r.next() // the Reject or the Disconnect: the count is taken before either is sent
		if m.GetReject() == nil && m.GetDisconnect() == nil {
			t.Fatalf("%s: the server answered %v, want a Reject or a Disconnect", tt.name, m)
		}
		if got := srv.Stats().BadFrames - before; got != tt.bad {
			t.Errorf("%s: bad frames +%d, want +%d", tt.name, got, tt.bad)
		}
	}
}
