package server_test

import (
	"context"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tanknet/client"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/server"
	"tanknet/transport"
)

// TestFlood_SpoofedSourcesCreateNoSessionAndHonestJoinsWork sends 10,000 datagrams from 50
// sources that never complete the handshake (KCP pushes with fresh conversations, OOB
// packets, Hellos, ConnectResponses with forged cookies, ConnectRequests whose Challenges
// nobody reads) while 20 honest clients join. No spoofed source may get a session; every
// honest client must get in.
func TestFlood_SpoofedSourcesCreateNoSessionAndHonestJoinsWork(t *testing.T) {
	const sources, perSource, honest = 50, 200, 20
	addr, srv := startServer(t, func(c *server.Config) { c.MaxPlayers = honest })
	server, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		t.Fatal(err)
	}
	hello := helloFrame(t, transport.ProtocolVersion)
	forged := append(append([]byte("TNK!\xe3\x02"), make([]byte, 24)...), kcpPush(9, 0, hello)...)
	request := append([]byte("TNK!\xe1\x02"), make([]byte, transport.ConnectRequestSize-6)...)

	var flood sync.WaitGroup
	for s := range sources {
		pc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			t.Fatal(err)
		}
		flood.Add(1)
		go func() {
			defer flood.Done()
			defer pc.Close()
			for i := range perSource {
				conv := uint32(s*perSource + i)
				var d []byte
				switch i % 5 {
				case 0:
					d = kcpPush(conv, 0, hello)
				case 1:
					d = kcpOOB(conv)
				case 2:
					d = forged
				case 3:
					d = request
				default:
					d = kcpPush(conv, uint32(i), nil)
				}
				pc.WriteTo(d, server)            // a full socket buffer loses some: that is a flood too
				time.Sleep(5 * time.Millisecond) // 10,000 a second in all, for about a second

			}
		}()
	}

	time.Sleep(100 * time.Millisecond) // the flood is on
	took := make([]time.Duration, honest)
	errs := make([]error, honest)
	var joins sync.WaitGroup
	for i := range honest {
		joins.Add(1)
		go func() {
			defer joins.Done()
			t0 := time.Now()
			sess, err := client.Dial(context.Background(), addr, "honest", nil, 10*time.Second)
			took[i], errs[i] = time.Since(t0), err
			if err == nil {
				defer sess.Close("done")
				// Hold the seat until everyone is in, so the joins overlap the flood.
				time.Sleep(200 * time.Millisecond)
			}
		}()
	}
	joins.Wait()
	flood.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("honest client %d during the flood: %v", i, err)
		}
	}
	slices.Sort(took)
	t.Logf("honest join time during the flood: p50 %v, p99 %v, max %v", took[honest/2], took[honest*99/100], took[honest-1])
	st := srv.Stats()
	if st.Joins != honest || st.Gate.Admitted != honest {
		t.Errorf("server stats %+v: want exactly the %d honest clients admitted and seated", st, honest)
	}
	if st.DatagramsIn < 1000 {
		t.Errorf("the server read %d datagrams, want most of the flood's %d", st.DatagramsIn, sources*perSource)
	}
	t.Logf("server read %d datagrams; gate stats: %+v", st.DatagramsIn, st.Gate)
}

// deafConn is a client socket that hears the connect handshake but nothing after: a
// client that never acknowledges what the server sends, as a blind squatter would. It
// counts what it sends, and closed is closed once the socket is.
type deafConn struct {
	net.PacketConn
	sent   atomic.Uint64 // datagrams written
	once   sync.Once
	closed chan struct{}
}

func newDeafConn(pc net.PacketConn) *deafConn {
	return &deafConn{PacketConn: pc, closed: make(chan struct{})}
}

func (c *deafConn) ReadFrom(b []byte) (int, net.Addr, error) {
	for {
		n, addr, err := c.PacketConn.ReadFrom(b)
		if err != nil || (n >= 5 && string(b[:4]) == "TNK!") {
			return n, addr, err
		}
	}
}

func (c *deafConn) WriteTo(b []byte, addr net.Addr) (int, error) {
	n, err := c.PacketConn.WriteTo(b, addr)
	if err == nil {
		c.sent.Add(1)
	}
	return n, err
}

func (c *deafConn) Close() error {
	err := c.PacketConn.Close()
	c.once.Do(func() { close(c.closed) })
	return err
}

// TestSlots_ClientThatNeverAcknowledgesLosesItsSlot: a client that sends (a Hello, then
// every 100 ms a Ping on the stream or an empty InputBatch on the datagram lane, either of
// which keeps the idle timer happy) but never acknowledges anything is dropped after the
// ack timeout, and its slot is free again.
func TestSlots_ClientThatNeverAcknowledgesLosesItsSlot(t *testing.T) {
	for _, tt := range []struct {
		name string
		talk func(r *rawClient, i int)
	}{
		{"pings on the stream", func(r *rawClient, i int) { r.send(ping(uint64(i))) }},
		{"input batches on the datagram lane", func(r *rawClient, i int) { r.sendDatagram(batch(t)) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			addr, srv := startServer(t, func(c *server.Config) {
				c.MaxPlayers, c.AckTimeout = 1, time.Second
				c.HelloTimeout = time.Second // a session its retransmissions open without a Hello ends soon
			})
			pc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
			if err != nil {
				t.Fatal(err)
			}
			deaf := newDeafConn(pc)
			r := dialRawOver(t, addr, deaf)
			r.send(hello(transport.ProtocolVersion))
			for i := 0; srv.Stats().Drops == 0; i++ {
				if i == 100 { // 10 s: ten times the ack timeout
					t.Fatalf("server stats %+v: the deaf client still holds its slot", srv.Stats())
				}
				tt.talk(r, i)
				time.Sleep(100 * time.Millisecond)
			}
			// Its KCP keeps retransmitting the unacknowledged Hello, each datagram still
			// carrying its cookie, which can seat it again after the drop (the server cannot
			// tell it from a new connection). Silence it and let the server read all it sent;
			// then the server must let go of all of it: no seat, no handshake, no admitted
			// address. Players == 0 alone may be the moment between a drop and a re-seat.
			r.conn.Close()
			select {
			case <-deaf.closed: // CloseLinger after Close: nothing is written after this
			case <-time.After(10 * time.Second):
				t.Fatal("the deaf client's socket never closed")
			}
			waitFor(t, "the server to read all the deaf client sent, and let go of it", func() bool {
				st := srv.Stats()
				return st.DatagramsIn >= deaf.sent.Load() && st.Players == 0 && st.Handshaking == 0 && st.Gate.Admissions == 0
			})
			st := srv.Stats()
			if st.Joins == 0 || st.Drops != st.Joins || st.DropsByReason["not_acknowledging"] != st.Drops {
				t.Errorf("server stats %+v: want the deaf client seated, then dropped for not acknowledging, each time", st)
			}
			honest := dialRaw(t, addr)
			honest.join() // the one slot is free again
		})
	}
}

func ping(t uint64) *tankv1.ClientMessage {
	return &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Ping{Ping: &tankv1.Ping{ClientTimeUs: t}}}
}

// waitFor polls cond every 10 ms for up to 10 s and fails the test if it never holds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}
