package server

import (
	"net"
	"testing"
	"time"

	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
)

// Every kind of drop reaches the player over a real KCP session as a Disconnect that
// carries its code beside its text, and is counted under the label of that code.
func TestSession_KickSendsDisconnectWithItsCode(t *testing.T) {
	for _, tt := range []struct {
		reason dropReason
		code   tankv1.DisconnectCode
		text   string
	}{
		{dropTimeout.reason("nothing received for 5s"), tankv1.DisconnectCode_DISCONNECT_CODE_TIMEOUT, "timed out: nothing received for 5s"},
		{dropProtocol.reason("second Hello"), tankv1.DisconnectCode_DISCONNECT_CODE_PROTOCOL_ERROR, "protocol error: second Hello"},
		{dropSlow.reason("control queue full"), tankv1.DisconnectCode_DISCONNECT_CODE_CANNOT_KEEP_UP, "cannot keep up: control queue full"},
		{dropNoAck.reason("nothing acknowledged for 30s"), tankv1.DisconnectCode_DISCONNECT_CODE_NOT_ACKNOWLEDGING, "not acknowledging: nothing acknowledged for 30s"},
		{dropShutdown.reason(""), tankv1.DisconnectCode_DISCONNECT_CODE_SHUTTING_DOWN, "server shutting down"},
	} {
		t.Run(tt.code.String(), func(t *testing.T) {
			server, player := kcpPair(t)
			cfg := DefaultConfig()
			s := newSession(server, &cfg, new(counters), newServerClock(time.Now()))
			wrote := make(chan error, 1)
			go func() { wrote <- s.writeLoop() }()
			s.kick(tt.reason)
			var m tankv1.ServerMessage
			if err := player.Recv(&m, 5*time.Second); err != nil {
				t.Fatalf("waiting for the Disconnect: %v", err)
			}
			d := m.GetDisconnect()
			if d.GetCode() != tt.code || d.GetReason() != tt.text {
				t.Errorf("got %v, want a Disconnect with code %v and reason %q", &m, tt.code, tt.text)
			}
			if err := <-wrote; err != nil {
				t.Errorf("writeLoop: %v", err)
			}
		})
	}
}

// kcpPair returns the two ends of a KCP session on 127.0.0.1: the server's and the player's.
func kcpPair(t *testing.T) (server, player *transport.Conn) {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln, err := transport.Listen(pc, transport.ListenConfig{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	player, err = transport.Dial(pc.LocalAddr().String(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { player.Close() })
	// The listener accepts a session when its first segment arrives.
	if err := player.Send(&tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Ping{Ping: &tankv1.Ping{}}}); err != nil {
		t.Fatal(err)
	}
	server, err = ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.Close() })
	return server, player
}
