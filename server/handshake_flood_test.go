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
// ConnectRequests from 64 sources in 64 /24 prefixes of the loopback network (127.0.k.1)
// while ten honest clients join from 127.0.0.1. The server's Challenge budget is lowered
// to 100 a second and the flood sends forty times that, so the budget is spent and every
// prefix is held to its share: each honest join still succeeds, and no flooding source gets
// a session.
//
// The flood is paced (a fixed number of requests per elapsed second), not as fast as the
// test can send: a flood the server cannot even read overflows the socket's buffer, and the
// kernel then drops honest datagrams as blindly as flooding ones, whatever the server does
// with what it reads. That is a capacity question, measured by BenchmarkFlood_HonestJoin;
// this test checks the budget's fairness, and holds on a loaded machine.
func TestFlood_ConnectRequestsFromManyPrefixesStarveNoHonestJoin(t *testing.T) {
	const prefixes, honest = 64, 10
	const budget, floodRate = 100, 4000 // Challenges a second; ConnectRequests a second
	addr, srv := startServer(t, func(c *server.Config) {
		c.MaxPlayers = honest
		c.ChallengesPerSecond = budget
	})
	flood := startFlood(t, addr, prefixes, floodRate)
	// Every prefix's first burst of Challenges is spent before the honest clients ask, so
	// they meet a server whose budget the flood is already exhausting.
	flood.waitSent(t, 2*prefixes*32)

	errs := make([]error, honest)
	var joins sync.WaitGroup
	for i := range honest {
		joins.Add(1)
		go func() {
			defer joins.Done()
			sess, err := client.Dial(context.Background(), addr, "honest", nil, 30*time.Second)
			errs[i] = err
			if err == nil {
				sess.Close("done")
			}
		}()
	}
	joins.Wait()
	sent := flood.stop()
	for i, err := range errs {
		if err != nil {
			t.Errorf("honest client %d during the flood: %v", i, err)
		}
	}
	st := srv.Stats()
	if st.Gate.Admitted != honest {
		t.Errorf("gate admitted %d addresses, want exactly the %d honest clients", st.Gate.Admitted, honest)
	}
	if st.Gate.Throttled == 0 {
		t.Errorf("the flood never spent the Challenge budget (%d requests sent): the test did not test the share", sent)
	}
	t.Logf("flood sent %d ConnectRequests; gate stats: %+v", sent, st.Gate)
}

// requestFlood sends ConnectRequests to a server from many loopback prefixes at a fixed
// average rate.
type requestFlood struct {
	sent    atomic.Int64
	halt    chan struct{}
	stopped sync.WaitGroup
}

// startFlood binds one socket in each of prefixes /24s of 127/8 and sends rate
// ConnectRequests a second to addr, round robin, until stop. It skips the test where the
// loopback takes only 127.0.0.1.
func startFlood(t *testing.T, addr string, prefixes, rate int) *requestFlood {
	t.Helper()
	dst, request, socks := floodSockets(t, addr, prefixes)
	f := &requestFlood{halt: make(chan struct{})}
	f.stopped.Add(1)
	go func() {
		defer f.stopped.Done()
		start := time.Now()
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for i := 0; ; {
			select {
			case <-f.halt:
				return
			case <-tick.C:
			}
			// Catch up with the rate after a late tick, but never more than a socket buffer's
			// worth at once: a burst the server cannot read would test the kernel, not the gate.
			due := int(time.Since(start).Seconds()*float64(rate)) - i
			for range min(due, 100) {
				socks[i%prefixes].WriteTo(request, dst)
				i++
				f.sent.Add(1)
			}
		}
	}()
	t.Cleanup(func() { f.stop() })
	return f
}

// floodSockets resolves addr and binds one socket in each of prefixes /24s of 127/8
// (127.0.k.1), closed when tb ends, with a ConnectRequest to send from them. It skips tb
// where the loopback takes only 127.0.0.1.
func floodSockets(tb testing.TB, addr string, prefixes int) (*net.UDPAddr, []byte, []*net.UDPConn) {
	tb.Helper()
	dst, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		tb.Fatal(err)
	}
	var socks []*net.UDPConn
	for k := range prefixes {
		pc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, byte(k+1), 1)})
		if err != nil {
			tb.Skipf("cannot bind 127.0.%d.1 (this loopback takes only 127.0.0.1): %v", k+1, err)
		}
		tb.Cleanup(func() { pc.Close() })
		socks = append(socks, pc)
	}
	return dst, append([]byte("TNK!\xe1\x02"), make([]byte, transport.ConnectRequestSize-6)...), socks
}

// waitSent waits until the flood has sent at least n requests.
func (f *requestFlood) waitSent(t *testing.T, n int64) {
	t.Helper()
	waitFor(t, "the flood to get going", func() bool { return f.sent.Load() >= n })
}

// stop ends the flood, once, and returns how many requests it sent.
func (f *requestFlood) stop() int64 {
	select {
	case <-f.halt:
	default:
		close(f.halt)
	}
	f.stopped.Wait()
	return f.sent.Load()
}
