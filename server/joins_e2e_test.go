package server_test

import (
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	tankv1 "tanknet/proto/tank/v1"
	"tanknet/server"
	"tanknet/transport"
)

// joiner is a raw client for join tests: it says hello, waits for its Welcome and first
// roster, then keeps reading (so its window stays open) until stopped.
type joiner struct {
	conn   *transport.Conn
	id     uint32
	roster int // players in the roster that followed our Welcome
	took   time.Duration
	dialed time.Duration // of took, the connect handshake
	err    error
}

// join connects as name and returns once the Welcome and first roster are in, or the error.
// The connection keeps being drained in the background until stop is closed.
func join(addr, name string, stop <-chan struct{}, wg *sync.WaitGroup) *joiner {
	j := &joiner{}
	t0 := time.Now()
	defer func() { j.took = time.Since(t0) }()
	conn, err := transport.Dial(addr, nil)
	if err != nil {
		j.err = err
		return j
	}
	j.conn = conn
	j.dialed = time.Since(t0)
	hello := &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Hello{Hello: &tankv1.Hello{ProtocolVersion: transport.ProtocolVersion, Name: name}}}
	if j.err = conn.Send(hello); j.err != nil {
		return j
	}
	for j.roster == 0 && j.err == nil { // bounded: each Recv waits at most 60 s
		m := new(tankv1.ServerMessage)
		if err := conn.Recv(m, 60*time.Second); err != nil {
			j.err = fmt.Errorf("%s: waiting for welcome and roster: %w", name, err)
			break
		}
		switch k := m.GetKind().(type) {
		case *tankv1.ServerMessage_Welcome:
			j.id = k.Welcome.GetPlayerId()
		case *tankv1.ServerMessage_RosterUpdate:
			j.roster = len(k.RosterUpdate.GetJoined())
		case *tankv1.ServerMessage_Reject:
			j.err = fmt.Errorf("%s: rejected: %s", name, k.Reject.GetReason())
		case *tankv1.ServerMessage_Disconnect:
			j.err = fmt.Errorf("%s: disconnected: %s", name, k.Disconnect.GetReason())
		}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer conn.Close()
		var m tankv1.ServerMessage
		ping := &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Ping{Ping: &tankv1.Ping{}}}
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if i%10 == 0 && conn.Send(ping) != nil { // keeps the idle timer from dropping us
				return
			}
			if err := conn.Recv(&m, 100*time.Millisecond); err != nil && !transport.IsTimeout(err) {
				return
			}
		}
	}()
	return j
}

// silentFlood opens n sessions that validate their address, send one byte of a frame and
// never finish it. The returned func closes them.
func silentFlood(t testing.TB, addr string, n int) func() {
	t.Helper()
	var conns []*transport.Conn
	for range n {
		c, err := transport.Dial(addr, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.SendFrame([]byte{0x07}); err != nil { // a length prefix, then silence
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	return func() {
		for _, c := range conns {
			c.Close()
		}
	}
}

// burst has players clients join addr, one every 6 ms, and returns each one's joiner once
// every one is seated or has failed. The connections are drained until stop is closed.
func burst(addr string, players int, stop <-chan struct{}, drain *sync.WaitGroup) []*joiner {
	var joins sync.WaitGroup
	joiners := make([]*joiner, players)
	for i := range joiners {
		joins.Add(1)
		go func() {
			defer joins.Done()
			time.Sleep(time.Duration(i) * 6 * time.Millisecond) // the burst's pace, not a wait for anything
			joiners[i] = join(addr, fmt.Sprintf("burst-%d", i), stop, drain)
		}()
	}
	joins.Wait()
	return joiners
}

// TestJoins_BurstWhileSilentFloodContained opens a flood of silent sessions, three times the
// handshake cap, then has 48 clients join in a burst. Every one must be seated with its
// whole roster (so the last one to be seated hears of all 48, in one message), and the
// flood must stay within the handshake cap: the silent sessions, older than every honest
// one, are the ones evicted.
//
// How long the joins take is a capacity of the machine, not checked here:
// BenchmarkJoins_BurstOf256WhileSilentFlood times a full server's worth.
// TestWorld_FullServerRosterReachesJoinerInOneFrame checks a roster of 256 fits one message.
func TestJoins_BurstWhileSilentFloodContained(t *testing.T) {
	// The flood alone evicts all but 2*cap of its own sessions, and 48 honest joins evict
	// at most 48 more: some silent session is always older than every honest one, so no
	// honest session can be the one evicted, however slowly the server reads. (Silent
	// sessions wait to be evicted, not timed out: the Hello timeout is long.)
	const players, flood, cap = 48, 100, 32
	addr, srv := startServer(t, func(c *server.Config) {
		c.MaxPlayers, c.MaxHandshakes, c.HelloTimeout = players, cap, time.Minute
		// A loaded machine may leave a client's reader unscheduled for seconds: this test
		// is about seating, not timeouts.
		c.IdleTimeout, c.AckTimeout = 60*time.Second, 60*time.Second
		c.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	})
	closeFlood := silentFlood(t, addr, flood)
	defer closeFlood()

	stop := make(chan struct{})
	var drain sync.WaitGroup
	joiners := burst(addr, players, stop, &drain)
	close(stop)
	defer drain.Wait()

	largest, seated := 0, 0
	for _, j := range joiners {
		if j.err != nil {
			t.Error(j.err)
			continue
		}
		seated++
		largest = max(largest, j.roster)
	}
	t.Logf("%d of %d seated; %s", seated, players, joinTimes(joiners))
	if largest != players {
		t.Errorf("the largest roster a joiner received lists %d players, want %d", largest, players)
	}
	st := srv.Stats()
	if st.Joins != players || st.Rejects != st.RejectsByCode["bad_hello"] {
		t.Errorf("server stats %+v: want %d joins and no rejects but the flood's", st, players)
	}
	// Silent sessions younger than a second may take the count up to twice the cap; never
	// more, and honest ones, whose Hello arrives with their session, never count.
	if int(st.Evicted) < flood-2*cap || st.Handshaking > 2*cap {
		t.Errorf("server stats %+v: want at least %d silent sessions evicted and at most %d waiting", st, flood-2*cap, 2*cap)
	}
}

// joinTimes describes how long joiners took: the slowest, the median and 99th percentile,
// and of that the connect handshake's.
func joinTimes(joiners []*joiner) string {
	var took, dialed []time.Duration
	for _, j := range joiners {
		took, dialed = append(took, j.took), append(dialed, j.dialed)
	}
	slices.Sort(took)
	slices.Sort(dialed)
	return fmt.Sprintf("join time max %v, p50 %v, p99 %v; of which the connect handshake p50 %v, p99 %v",
		took[len(took)-1], took[len(took)/2], took[len(took)*99/100], dialed[len(dialed)/2], dialed[len(dialed)*99/100])
}
