package transport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"tanknet/linksim"
	tankv1 "tanknet/proto/tank/v1"
)

// connPair is a real KCP session over loopback UDP: a listener with its accepted Conn and
// the Conn that dialed it, both with the production FEC setting unless told otherwise.
type connPair struct {
	ln             *Listener
	client, server *Conn
	cond           *linksim.ConditionedConn // under the client, when conditions were given
}

func newConnPair(t testing.TB, fec fecShards, conds *linksim.Conditions) *connPair {
	t.Helper()
	ln, err := listen(listenUDP(t), fec, ListenConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var cpc net.PacketConn = listenUDP(t)
	var cond *linksim.ConditionedConn
	if conds != nil { // the client's side impairs both directions, as tanksim's bots do
		if cond, err = linksim.Condition(cpc, *conds, 1); err != nil {
			t.Fatal(err)
		}
		cpc = cond
	}
	client, err := dial(context.Background(), ln.pc.LocalAddr().String(), cpc, fec)
	if err != nil {
		ln.Close()
		t.Fatal(err)
	}
	// KCP has no handshake: the server learns of the session from its first packet.
	if err := client.Send(&tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Hello{Hello: &tankv1.Hello{Name: "pair"}}}); err != nil {
		t.Fatal(err)
	}
	server, err := acceptWithin(ln, waitLimit)
	if err != nil {
		client.Close()
		ln.Close()
		t.Fatal(err)
	}
	var first tankv1.ClientMessage
	if err := server.Recv(&first, waitLimit); err != nil {
		t.Fatal(err)
	}
	p := &connPair{ln: ln, client: client, server: server, cond: cond}
	t.Cleanup(func() {
		client.Close()
		server.Close()
		ln.StopAccepting()
		ln.pc.Close()
	})
	return p
}

func acceptWithin(ln *Listener, d time.Duration) (*Conn, error) {
	type result struct {
		c   *Conn
		err error
	}
	ch := make(chan result, 1)
	go func() {
		c, err := ln.Accept()
		ch <- result{c, err}
	}()
	select {
	case r := <-ch:
		return r.c, r.err
	case <-time.After(d):
		ln.StopAccepting()
		return nil, errors.New("no session accepted in time")
	}
}

// datagramInbox collects the datagrams a Conn receives, copied.
type datagramInbox struct {
	mu  sync.Mutex
	got [][]byte
}

func (in *datagramInbox) handler(b []byte) {
	in.mu.Lock()
	in.got = append(in.got, bytes.Clone(b))
	in.mu.Unlock()
}

func (in *datagramInbox) has(want []byte) bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	for _, g := range in.got {
		if bytes.Equal(g, want) {
			return true
		}
	}
	return false
}

// sendUntilReceived sends b from c until in holds it. Loopback practically never drops,
// but a datagram may: resend a bounded number of times rather than trust one packet.
func sendUntilReceived(t *testing.T, c *Conn, in *datagramInbox, b []byte) {
	t.Helper()
	for range 100 {
		if err := c.SendDatagram(b); err != nil {
			t.Fatalf("SendDatagram(%d bytes): %v", len(b), err)
		}
		deadline := time.Now().Add(100 * time.Millisecond)
		for time.Now().Before(deadline) {
			if in.has(b) {
				return
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
	t.Fatalf("a %d-byte datagram never arrived", len(b))
}

func TestDatagrams_CrossLoopbackBothWaysBesideTheStream(t *testing.T) {
	p := newConnPair(t, defaultFEC, nil)
	var atServer, atClient datagramInbox
	p.server.OnDatagram(atServer.handler)
	p.client.OnDatagram(atClient.handler)

	sendUntilReceived(t, p.client, &atServer, []byte("inputs up"))
	sendUntilReceived(t, p.server, &atClient, []byte("snapshot down"))
	full := bytes.Repeat([]byte{0xAB}, MaxDatagramSize)
	sendUntilReceived(t, p.server, &atClient, full)
	sendUntilReceived(t, p.client, &atServer, full)

	// The stream still works on the same session, and datagrams never leak into it.
	ping := &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Ping{Ping: &tankv1.Ping{ClientTimeUs: 42}}}
	if err := p.client.Send(ping); err != nil {
		t.Fatal(err)
	}
	var got tankv1.ClientMessage
	if err := p.server.Recv(&got, waitLimit); err != nil || got.GetPing().GetClientTimeUs() != 42 {
		t.Fatalf("stream after datagrams: %v, %v; want the Ping", &got, err)
	}
}

func TestDatagrams_MaxSizeMatchesKCPAndLargerIsRefused(t *testing.T) {
	p := newConnPair(t, defaultFEC, nil)
	if got := p.client.sess.GetOOBMaxSize(); got != MaxDatagramSize {
		t.Fatalf("kcp-go's OOB limit is %d bytes, MaxDatagramSize says %d", got, MaxDatagramSize)
	}
	err := p.client.SendDatagram(make([]byte, MaxDatagramSize+1))
	if !errors.Is(err, ErrDatagramTooLarge) {
		t.Errorf("SendDatagram(MaxDatagramSize+1) = %v, want ErrDatagramTooLarge", err)
	}
}

func TestDatagrams_NeedFEC(t *testing.T) {
	p := newConnPair(t, fecShards{}, nil)
	if err := p.client.SendDatagram([]byte("x")); err == nil {
		t.Error("SendDatagram without FEC succeeded; kcp-go's OOB lane needs FEC")
	}
}

func TestAppendAndDecodeDatagram(t *testing.T) {
	in := &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_InputBatch{InputBatch: &tankv1.InputBatch{
		Inputs:          []*tankv1.MoveInput{{Tick: 7, Turn: 1, DurationMs: 50}, {Tick: 8, Throttle: -1, DurationMs: 50}},
		SnapshotAckTick: 99, SnapshotAckMask: 0b101,
	}}}
	b, err := AppendDatagram(nil, in)
	if err != nil {
		t.Fatal(err)
	}
	var out tankv1.ClientMessage
	if err := DecodeDatagram(b, &out); err != nil {
		t.Fatal(err)
	}
	if got := out.GetInputBatch(); len(got.GetInputs()) != 2 || got.GetInputs()[1].GetTick() != 8 || got.GetSnapshotAckMask() != 0b101 {
		t.Errorf("round trip = %v", &out)
	}
	big := &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Goodbye{Goodbye: &tankv1.Goodbye{Reason: string(make([]byte, MaxDatagramSize))}}}
	if _, err := AppendDatagram(nil, big); !errors.Is(err, ErrDatagramTooLarge) {
		t.Errorf("AppendDatagram(oversized) = %v, want ErrDatagramTooLarge", err)
	}
	if err := DecodeDatagram(make([]byte, MaxDatagramSize+1), &out); !errors.Is(err, ErrDatagramTooLarge) {
		t.Errorf("DecodeDatagram(oversized) = %v, want ErrDatagramTooLarge", err)
	}
	if err := DecodeDatagram([]byte{0xff, 0xff, 0xff}, &out); err == nil {
		t.Error("DecodeDatagram(garbage) succeeded")
	}
}

// TestDatagram_WorkedExampleBytes pins the InputBatch example in docs/PROTOCOL.md §10.
func TestDatagram_WorkedExampleBytes(t *testing.T) {
	m := &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_InputBatch{InputBatch: &tankv1.InputBatch{
		Inputs:          []*tankv1.MoveInput{{Tick: 7, Turn: -1, Throttle: 0.5, DurationMs: 50}},
		SnapshotAckTick: 120, SnapshotAckMask: 3,
	}}}
	got, err := AppendDatagram(nil, m)
	if err != nil {
		t.Fatal(err)
	}
	want := "2a1f0a16080711000000000000f0bf19000000000000e03f2032" + "1078" + "1d03000000"
	if fmt.Sprintf("%x", got) != want {
		t.Errorf("InputBatch datagram = %x, want %s", got, want)
	}
}
