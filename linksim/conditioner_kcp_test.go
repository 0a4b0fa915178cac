package linksim

import (
	"bytes"
	"encoding/binary"
	"io"
	"math"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/xtaci/kcp-go/v5"
)

// The done-when test: real KCP over a conditioned loopback socket. With 50 ms added
// one way the measured round trip rises by about 50 ms; with loss, every message still
// arrives, exactly once and in order.
func TestKCPOverConditionedLink(t *testing.T) {
	if testing.Short() {
		t.Skip("runs real KCP sessions on loopback")
	}

	t.Run("50 ms one way raises the RTT by about 50 ms", func(t *testing.T) {
		cc, sess := dialKCPEcho(t, Conditions{}, 1)
		const samples = 15
		base := kcpRoundTrips(t, sess, samples)

		const added = 50 * time.Millisecond
		if err := cc.SetConditions(Conditions{Outbound: Link{Latency: added}}); err != nil {
			t.Fatal(err)
		}
		kcpRoundTrips(t, sess, 1) // flush anything queued under the old conditions
		slowed := kcpRoundTrips(t, sess, samples)

		// Scheduling noise on a loaded machine only ever adds time, so the fastest round
		// trips show the added latency most faithfully; medians get a loose upper bound.
		riseFastest := slices.Min(slowed) - slices.Min(base)
		riseMedian := median(slowed) - median(base)
		t.Logf("RTT fastest %v -> %v, median %v -> %v; KCP smoothed RTT now %d ms",
			slices.Min(base), slices.Min(slowed), median(base), median(slowed), sess.GetSRTT())
		if fastest := slices.Min(slowed); fastest < added {
			// No reply can come back before the request has served its delay.
			t.Errorf("fastest round trip with %v added = %v, want at least %v", added, fastest, added)
		}
		if riseFastest < added-5*time.Millisecond || riseFastest > added+400*time.Millisecond {
			t.Errorf("fastest RTT rose by %v, want about %v", riseFastest, added)
		}
		// No lower bound on the median rise: load that inflates the baseline median (say, a
		// busy 2-core CI runner under -race) shrinks the rise without anything being wrong.
		// The fastest round trip above already proves the delay is applied.
		if riseMedian > added+400*time.Millisecond {
			t.Errorf("median RTT rose by %v, want at most %v", riseMedian, added+400*time.Millisecond)
		}
	})

	messy, err := Preset("wifi-bad")
	if err != nil {
		t.Fatal(err)
	}
	lossy := []struct {
		name string
		cond Conditions
	}{
		{name: "15% loss both ways", cond: Symmetric(Link{Loss: 0.15})},
		{name: "10% loss with duplicates, reordering and jitter", cond: Symmetric(Link{
			Latency: 5 * time.Millisecond, Jitter: 5 * time.Millisecond, Loss: 0.1, Duplicate: 0.05, Reorder: 0.1,
		})},
		{name: "wifi-bad preset", cond: messy},
	}
	for _, tt := range lossy {
		t.Run(tt.name+" delivers every message once, in order", func(t *testing.T) {
			cc, sess := dialKCPEcho(t, tt.cond, 2)
			const messages = 200
			const end = math.MaxUint32 // sentinel after the numbered messages
			if err := sess.SetDeadline(time.Now().Add(waitLimit)); err != nil {
				t.Fatal(err)
			}
			go func() { // the echo comes back while we write; errors surface as a read timeout
				for i := range uint32(messages) {
					if _, err := sess.Write(binary.BigEndian.AppendUint32(nil, i)); err != nil {
						return
					}
				}
				sess.Write(binary.BigEndian.AppendUint32(nil, end))
			}()

			buf := make([]byte, 4)
			for want := uint32(0); ; want++ {
				if _, err := io.ReadFull(sess, buf); err != nil {
					t.Fatalf("after %d echoes: %v", want, err)
				}
				got := binary.BigEndian.Uint32(buf)
				if got == end && want == messages {
					break
				}
				if got != want {
					t.Fatalf("echo %d carries message %d", want, got)
				}
			}
			st := cc.Stats()
			t.Logf("conditioner: outbound %+v, inbound %+v", st.Outbound, st.Inbound)
			if tt.cond.Outbound.Loss > 0 && (st.Outbound.Lost == 0 || st.Inbound.Lost == 0) {
				t.Errorf("nothing was lost in one direction (%+v), so the test proved nothing", st)
			}
		})
	}
}

// dialKCPEcho starts a KCP echo server on a plain loopback socket and connects to it
// through a conditioned one. Everything is closed when the test ends.
func dialKCPEcho(t *testing.T, c Conditions, seed uint64) (*ConditionedConn, *kcp.UDPSession) {
	t.Helper()
	serverConn := listenUDP(t)
	l, err := kcp.ServeConn(nil, 0, 0, serverConn)
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu       sync.Mutex
		sessions []*kcp.UDPSession
		echoes   sync.WaitGroup
	)
	accepted := make(chan struct{})
	go func() {
		defer close(accepted)
		for {
			s, err := l.AcceptKCP()
			if err != nil {
				return
			}
			tuneForTest(s)
			mu.Lock()
			sessions = append(sessions, s)
			mu.Unlock()
			echoes.Add(1)
			go func() {
				defer echoes.Done()
				buf := make([]byte, 4096)
				for {
					n, err := s.Read(buf)
					if err != nil {
						return
					}
					if _, err := s.Write(buf[:n]); err != nil {
						return
					}
				}
			}()
		}
	}()

	cc, _ := newConditionedUDP(t, c, seed)
	sess, err := kcp.NewConn2(serverConn.LocalAddr(), nil, 0, 0, cc)
	if err != nil {
		t.Fatal(err)
	}
	tuneForTest(sess)

	t.Cleanup(func() {
		sess.Close()
		l.Close()
		<-accepted
		mu.Lock()
		for _, s := range sessions {
			s.Close()
		}
		mu.Unlock()
		echoes.Wait()
	})
	return cc, sess
}

// tuneForTest applies the low-latency settings the game uses ("fast3" in kcptun).
func tuneForTest(s *kcp.UDPSession) {
	s.SetNoDelay(1, 10, 2, 1)
	s.SetWindowSize(128, 128)
	s.SetACKNoDelay(true)
}

// kcpRoundTrips sends n small messages one at a time and times each echo.
func kcpRoundTrips(t *testing.T, sess *kcp.UDPSession, n int) []time.Duration {
	t.Helper()
	msg, echo := []byte("ping0123"), make([]byte, 8)
	out := make([]time.Duration, n)
	for i := range out {
		if err := sess.SetDeadline(time.Now().Add(waitLimit)); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if _, err := sess.Write(msg); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(sess, echo); err != nil {
			t.Fatalf("round trip %d: %v", i, err)
		}
		out[i] = time.Since(start)
		if !bytes.Equal(echo, msg) {
			t.Fatalf("echo = %q, want %q", echo, msg)
		}
	}
	return out
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
