package server_test

import (
	"context"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/server"
	"tanknet/transport"
)

// TestFlood_ConnectRequestsFromManyPrefixesStarveNoHonestJoin floods the server with
// ConnectRequests as fast as four goroutines can send them, from 64 sources in 64 /24
// prefixes of the loopback network (127.0.k.1), while ten honest clients join from
// 127.0.0.1. The Challenge budget is shared fairly among prefixes, so every honest join
// succeeds; no flooding source gets a session.
func TestFlood_ConnectRequestsFromManyPrefixesStarveNoHonestJoin(t *testing.T) {
	const prefixes, senders, honest = 64, 4, 10
	addr, srv := startServer(t, func(c *server.Config) { c.MaxPlayers = honest })
	dst, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		t.Fatal(err)
	}
	request := append([]byte("TNK!\xe1\x02"), make([]byte, transport.ConnectRequestSize-6)...)
	var socks []*net.UDPConn
	for k := range prefixes {
		pc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, byte(k+1), 1)})
		if err != nil {
			t.Skipf("cannot bind 127.0.%d.1 (this loopback takes only 127.0.0.1): %v", k+1, err)
		}
		defer pc.Close()
		socks = append(socks, pc)
	}
	var stop atomic.Bool
	var sent atomic.Int64
	var flood sync.WaitGroup
	for s := range senders {
		flood.Add(1)
		go func() {
			defer flood.Done()
			for i := s; !stop.Load(); i += senders {
				socks[i%prefixes].WriteTo(request, dst) // a full socket buffer loses some: that is a flood too
				sent.Add(1)
			}
		}()
	}
	defer func() { stop.Store(true); flood.Wait() }()

	time.Sleep(100 * time.Millisecond) // the flood is on
	errs := make([]error, honest)
	var joins sync.WaitGroup
	for i := range honest {
		joins.Add(1)
		go func() {
			defer joins.Done()
			sess, err := client.Dial(context.Background(), addr, "honest", nil, 20*time.Second)
			errs[i] = err
			if err == nil {
				sess.Close("done")
			}
		}()
	}
	joins.Wait()
	stop.Store(true)
	flood.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("honest client %d during the flood: %v", i, err)
		}
	}
	st := srv.Stats()
	if st.Gate.Admitted != honest {
		t.Errorf("gate admitted %d addresses, want exactly the %d honest clients", st.Gate.Admitted, honest)
	}
	t.Logf("flood sent %d ConnectRequests; gate stats: %+v", sent.Load(), st.Gate)
}
