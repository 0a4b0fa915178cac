package server_test

import (
	"sync"
	"testing"
	"time"

	"tanknet/internal/servertest"
	"tanknet/netcode"
	"tanknet/server"
)

// TestPace_SaveThenBurstOverRealSockets: a client joins, keeps its session alive with Pings
// for two seconds without moving, then sends six seconds of full throttle at once. The
// server's own record of every tick shows the tank never covering more than twice the
// arena speed's distance in any second of server time, and all the inputs applied in the end.
func TestPace_SaveThenBurstOverRealSockets(t *testing.T) {
	type sample struct {
		now  time.Duration
		pose netcode.Pose
	}
	var (
		mu      sync.Mutex
		samples []sample
		watch   uint32
	)
	srv := servertest.StartObserved(t, nil, func(rec server.TickRecord) {
		mu.Lock()
		defer mu.Unlock()
		for i, id := range rec.IDs {
			if id == watch && watch != 0 {
				samples = append(samples, sample{rec.Now, rec.Poses[i]})
			}
		}
	})
	r := dialRaw(t, srv.Addr)
	start := r.join()
	mu.Lock()
	watch = r.id
	mu.Unlock()
	for i := range 20 { // two seconds of saving up
		r.send(ping(uint64(i)))
		time.Sleep(100 * time.Millisecond)
	}
	const burst = 120 // six seconds of driving: all the input lead allows
	for i := range uint32(burst) {
		r.send(move(start.Ack+1+i, 0, 1, 50))
	}
	r.ownState(start.Ack + burst) // the whole burst applied (at 2x: 3 s; ownState allows 5)
	arena := srv.Arena()
	limit := 2 * arena.Speed * time.Second.Seconds()
	mu.Lock()
	defer mu.Unlock()
	fastest := 0.0
	for i, a := range samples {
		for _, b := range samples[i+1:] {
			if b.now-a.now > time.Second {
				break
			}
			d := a.pose.Distance(b.pose)
			fastest = max(fastest, d)
			if d > limit+1e-9 {
				t.Fatalf("server time %v to %v: the tank covered %.3f units, more than twice the speed allows (%.3f)", a.now, b.now, d, limit)
			}
		}
	}
	t.Logf("%d ticks observed; fastest second covered %.3f of at most %.3f units", len(samples), fastest, limit)
	if fastest == 0 {
		t.Error("the tank never moved: the burst was not applied")
	}
}
