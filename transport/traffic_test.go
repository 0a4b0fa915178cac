package transport

import (
	"context"
	"testing"
	"time"

	tankv1 "tanknet/proto/tank/v1"
)

// TestListener_TrafficIsWhatItsSocketCarried: a listener counts every datagram and byte its
// socket read and wrote (the handshake, the session, its acknowledgements), as a
// CountingConn under it sees them.
func TestListener_TrafficIsWhatItsSocketCarried(t *testing.T) {
	under := NewCountingConn(listenUDP(t))
	ln, err := listen(under, defaultFEC, ListenConfig{})
	if err != nil {
		t.Fatal(err)
	}
	client, err := dial(context.Background(), under.LocalAddr().String(), listenUDP(t), defaultFEC)
	if err != nil {
		t.Fatal(err)
	}
	if err := client.Send(&tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Hello{Hello: &tankv1.Hello{Name: "counted"}}}); err != nil {
		t.Fatal(err)
	}
	server, err := acceptWithin(ln, waitLimit)
	if err != nil {
		t.Fatal(err)
	}
	var hello tankv1.ClientMessage
	if err := server.Recv(&hello, waitLimit); err != nil {
		t.Fatal(err)
	}
	if err := server.Send(&tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Pong{Pong: &tankv1.Pong{ClientTimeUs: 7}}}); err != nil {
		t.Fatal(err)
	}
	var pong tankv1.ServerMessage
	if err := client.Recv(&pong, waitLimit); err != nil {
		t.Fatal(err)
	}
	client.Close()
	server.Close()
	ln.StopAccepting()
	under.Close()
	// The socket is closed. A write is counted once it returns, which may be after its
	// datagram was read (the Pong's, by the client above): wait for the two counts to agree
	// on at least the writes known to have happened (the Challenge and the Pong).
	var got, want Traffic
	for end := time.Now().Add(waitLimit); time.Now().Before(end); time.Sleep(time.Millisecond) {
		if got, want = ln.Traffic(), under.Traffic(); got == want && got.DatagramsOut >= 2 {
			break
		}
	}
	if got != want {
		t.Fatalf("listener counted %+v, its socket carried %+v", got, want)
	}
	if got.DatagramsIn < 2 || got.DatagramsOut < 2 || got.BytesIn < ConnectRequestSize {
		t.Errorf("traffic %+v: want the handshake (a request, a Challenge, the Hello in the response) and the Pong counted", got)
	}
}
