package load

import (
	"context"
	"fmt"
	"sync"
	"syscall"
	"time"

	"tanknet/netcode"
	"tanknet/transport"
)

// settleFor is how long clients keep reading, sending nothing, after the run: time for the
// server to apply and acknowledge the last inputs before they are counted unapplied.
const settleFor = time.Second

// meter is what one driver's clients measured; each driver has its own, merged at the end.
type meter struct {
	input  Histogram // intended send time to the snapshot that acknowledged the input
	rtt    Histogram // intended ping time to its pong
	inputs uint64    // moves sent
	chunks uint64    // snapshot chunks taken (duplicates not counted)
}

// Run joins cfg.Players thin clients to cfg.Server, drives them for cfg.Duration, lets
// them settle and reports what they saw. It returns an error only when the run could not
// start (bad config, no client joined); clients that fail or are dropped are counted.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Script == nil {
		cfg.Script = circles
	}
	rep := &Report{Players: cfg.Players, Rooms: cfg.Rooms(), Drivers: cfg.Drivers}
	clients := join(ctx, cfg, rep)
	defer leave(clients, "load run over")
	if len(clients) == 0 {
		return rep, fmt.Errorf("tankload: no client joined %s: %s", cfg.Server, rep.FirstJoinError)
	}
	if cfg.Playing != nil {
		cfg.Playing(true)
	}
	cpu0, t0, traffic0 := processCPU(), time.Now(), traffic(clients)
	meters := drive(ctx, cfg, clients, t0.Add(cfg.Duration), true)
	rep.Wall = time.Since(t0)
	rep.CPU = processCPU() - cpu0
	rep.Traffic = traffic(clients).minus(traffic0)
	if cfg.Playing != nil {
		cfg.Playing(false)
	}
	drive(ctx, cfg, clients, time.Now().Add(settleFor), false)
	rep.take(meters, clients)
	return rep, nil
}

// join dials every client, cfg.JoinParallel at a time, each with its reader running.
func join(ctx context.Context, cfg Config, rep *Report) []*thin {
	var (
		mu      sync.Mutex
		clients []*thin
		dials   sync.WaitGroup
		joins   Histogram
	)
	slots := make(chan struct{}, cfg.JoinParallel) // a handshake in flight holds one
	start := time.Now()
	for i := range cfg.Players {
		slots <- struct{}{}
		dials.Add(1)
		go func() {
			defer func() { <-slots; dials.Done() }()
			t0 := time.Now()
			name := fmt.Sprintf("load-%d", i+1)
			c, err := dialThin(ctx, cfg.Server, name, cfg.RoomOf(i), cfg.JoinTimeout, cfg.Script(i))
			took := time.Since(t0)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				rep.JoinFailed++
				rep.FirstJoinError = cmpOr(rep.FirstJoinError, err.Error())
				return
			}
			joins.Record(took)
			clients = append(clients, c)
		}()
	}
	dials.Wait()
	rep.JoinBurst = time.Since(start)
	rep.Joined = len(clients)
	rep.JoinP50, rep.JoinP99, rep.JoinMax = joins.Quantile(0.5), joins.Quantile(0.99), joins.Max()
	return clients
}

// leave says goodbye for every client (each Goodbye leaves at once) and closes them all.
func leave(clients []*thin, reason string) {
	for _, c := range clients {
		c.goodbye(reason)
	}
	for _, c := range clients {
		c.close(reason)
	}
}

// drive runs cfg.Drivers goroutines, each updating its share of the clients on its own
// 50 ms clock until end (sending inputs only when sending), and returns their meters.
// A client whose session ended is left alone from then on; its error is kept.
func drive(ctx context.Context, cfg Config, clients []*thin, end time.Time, sending bool) []*meter {
	meters := make([]*meter, cfg.Drivers)
	var wg sync.WaitGroup
	start := time.Now()
	for d := range cfg.Drivers {
		meters[d] = new(meter)
		share := clients[d*len(clients)/cfg.Drivers : (d+1)*len(clients)/cfg.Drivers]
		phase := time.Duration(d) * netcode.StepInterval / time.Duration(cfg.Drivers)
		wg.Add(1)
		go func() {
			defer wg.Done()
			driveShare(ctx, share, meters[d], start.Add(phase), end, sending)
		}()
	}
	wg.Wait()
	return meters
}

// passesPerTick is how many KCP clock passes a driver makes a game tick: its clients'
// conversations are updated every transport.KCPInterval, and every fifth pass is a game pass.
const passesPerTick = int(netcode.StepInterval / transport.KCPInterval)

// driveShare runs share's clock from first until end: a game pass every 50 ms and, while a
// client has segments unacknowledged, a KCP pass every interval between (kcp-go's session
// updates every interval whatever; with nothing unacknowledged an update writes nothing).
// Each pass is given its intended time, not the time it ran: a pass that runs late sends
// late, and the latency it adds is measured, not hidden.
func driveShare(ctx context.Context, share []*thin, m *meter, first, end time.Time, sending bool) {
	timer := time.NewTimer(time.Until(first))
	defer timer.Stop()
	for k := 0; ; {
		at := first.Add(time.Duration(k) * transport.KCPInterval)
		if !at.Before(end) {
			return
		}
		timer.Reset(time.Until(at))
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		}
		busy := false
		for _, c := range share {
			if c.err == nil {
				var b bool
				b, c.err = c.pass(at, m, sending, k%passesPerTick == 0)
				busy = busy || b
			}
		}
		if k++; !busy {
			k += (passesPerTick - k%passesPerTick) % passesPerTick // to the next game pass
		}
	}
}

// cmpOr returns a, or b when a is empty.
func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// traffic returns every client's socket traffic so far, summed: the handshakes' too.
func traffic(clients []*thin) Traffic {
	var t Traffic
	for _, c := range clients {
		x := c.link.counted()
		t.BytesIn += x.BytesIn
		t.BytesOut += x.BytesOut
		t.DatagramsIn += x.DatagramsIn
		t.DatagramsOut += x.DatagramsOut
	}
	return t
}

// processCPU returns the user and system CPU time this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
