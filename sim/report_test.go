package sim

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/netcode"
)

// handRun is a 4 s run of two bots measured by hand: ground truth where player 1 sits at
// x = tick (ticks every 50 ms), frames every 500 ms (bot 1) and 750 ms (bot 2), a window of
// [1 s, 3 s], and bot 2 keeping no remote samples at all, as if thinned to nothing.
func handRun(t *testing.T) *runData {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Bots, cfg.Duration = 2, 4*time.Second
	oneWay := 40 * time.Millisecond
	cfg.Link.Both.Latency = &oneWay
	spec, err := newSpec(cfg, "custom", interpReceive, "datagram")
	if err != nil {
		t.Fatal(err)
	}
	d := &runData{spec: spec, start: time.Now(), windowStart: time.Second, windowEnd: 3 * time.Second, truth: newHistory(time.Second)}
	recordTicks(d.truth, 100, noSkew)

	frame := func(p *probe, at time.Duration, bytes traffic, rs ...remoteSample) {
		now := d.start.Add(at)
		if p.frames == 0 {
			p.first, p.firstBytes = now, bytes
		}
		p.last, p.lastBytes = now, bytes
		p.frames++
		holds := 0
		for _, s := range rs {
			s.at = at
			holds += btoi(!s.bracketed)
			p.remote.add(s)
		}
		p.counted.add(at, len(rs), holds)
	}
	ms := func(n float64) time.Duration { return time.Duration(n * float64(time.Millisecond)) }
	// in is a remote sample in the window: drawn at x, server time now, delay and configured
	// delay in ms, error at the drawn tick.
	in := func(x, now, delay, configured, e float64, bracketed bool) remoteSample {
		return remoteSample{id: 1, pose: netcode.Pose{X: x}, serverNow: ms(now), delay: ms(delay), configured: ms(configured), err: e, bracketed: bracketed}
	}
	out := remoteSample{id: 1, pose: netcode.Pose{X: 99}, serverNow: time.Second, delay: time.Second, configured: time.Second, err: 9, bracketed: false}

	// Bot 1: 8 frames of one remote tank, 5 in the window, one of those a hold. At a steady
	// 160 ms (the median delay) the server had player 1 at x = now/50ms - 3.2.
	b1 := newProbe(d.start, d.truth, 1, 2)
	frame(b1, 0, traffic{up: 500, down: 2000}, out)
	frame(b1, 500*time.Millisecond, traffic{up: 600, down: 2500}, out)
	frame(b1, 1000*time.Millisecond, traffic{up: 700, down: 3000}, in(17, 1000, 150, 100, 0, true))
	frame(b1, 1500*time.Millisecond, traffic{up: 800, down: 3500}, in(26.8, 1500, 150, 100, 0.3, false))
	frame(b1, 2000*time.Millisecond, traffic{up: 900, down: 4000}, in(36.5, 2000, 160, 100, 0.4, true))
	frame(b1, 2500*time.Millisecond, traffic{up: 1000, down: 4500}, in(46.8, 2500, 170, 120, 0, true))
	frame(b1, 3000*time.Millisecond, traffic{up: 1100, down: 5000}, in(56.8, 3000, 200, 80, 0, true))
	frame(b1, 3500*time.Millisecond, traffic{up: 1200, down: 5500}, out)
	b1.rtts.add(rttSample{at: 200 * time.Millisecond, rtt: 500 * time.Millisecond})
	b1.rtts.add(rttSample{at: 1200 * time.Millisecond, rtt: 40 * time.Millisecond})
	b1.rtts.add(rttSample{at: 2200 * time.Millisecond, rtt: 60 * time.Millisecond})
	b1.rtts.add(rttSample{at: 3200 * time.Millisecond, rtt: 900 * time.Millisecond})

	// Bot 2: 5 frames of two remote tanks, 3 in the window with one hold among them; its
	// reservoir keeps none of them.
	b2 := newProbe(d.start, d.truth, 2, 2)
	b2.remote = newReservoir[remoteSample](0, 2, 0)
	frame(b2, 500*time.Millisecond, traffic{}, out, out)
	frame(b2, 1250*time.Millisecond, traffic{up: 100, down: 1000}, in(0, 0, 0, 0, 0, true), in(0, 0, 0, 0, 0, true))
	frame(b2, 2000*time.Millisecond, traffic{up: 200, down: 3000}, in(0, 0, 0, 0, 0, false), in(0, 0, 0, 0, 0, true))
	frame(b2, 2750*time.Millisecond, traffic{up: 250, down: 5000}, in(0, 0, 0, 0, 0, true), in(0, 0, 0, 0, 0, true))
	frame(b2, 3500*time.Millisecond, traffic{up: 300, down: 6000}, out, out)
	b2.rtts.add(rttSample{at: 1700 * time.Millisecond, rtt: 50 * time.Millisecond})

	d.bots = []botRun{
		{probe: b1, report: client.Report{Reconciliations: 3, ResidualNonZero: 1, ResidualMax: 0.5, Corrections: 2, Holds: 7}},
		{probe: b2, report: client.Report{Reconciliations: 4, ResidualMax: 0.25, Snaps: 1, Holds: 5}},
	}
	return d
}

func TestBuildReportArithmetic(t *testing.T) {
	r := buildReport(handRun(t))
	near := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	if r.WindowSeconds != [2]float64{1, 3} {
		t.Errorf("window_s = %v, want [1 3]", r.WindowSeconds)
	}
	if r.Reconciliations != 7 || r.ResidualNonZero != 1 || r.ResidualMax != 0.5 || r.Corrections != 2 || r.Snaps != 1 || r.Holds != 12 {
		t.Errorf("counters = %d reconciliations, %d residual, max %v, %d corrections, %d snaps, %d holds; want 7, 1, 0.5, 2, 1, 12",
			r.Reconciliations, r.ResidualNonZero, r.ResidualMax, r.Corrections, r.Snaps, r.Holds)
	}
	// 5 frames of 1 tank and 3 of 2 in [1 s, 3 s], ends included, though bot 2 kept no
	// sample; 1 hold each.
	if r.RemoteFrames != 11 {
		t.Errorf("remote_frames = %d, want 11", r.RemoteFrames)
	}
	if r.HoldsRatio == nil {
		t.Fatal("holds_ratio = null")
	}
	near("holds_ratio", *r.HoldsRatio, 2.0/11)
	if r.ConfiguredDelayMillis == nil || r.RemoteDelay == nil || r.RemoteDelayRatio == nil || r.RemoteError == nil || r.RemotePlaybackError == nil || r.RTT == nil {
		t.Fatalf("a remote or RTT metric is null: %+v", r)
	}
	near("one_way_ms", r.OneWayMillis, 40)
	near("configured_delay_ms", *r.ConfiguredDelayMillis, 100)
	near("remote_delay_ms.p50", r.RemoteDelay.P50, 160)
	near("remote_delay_ms.p99", r.RemoteDelay.P99, 170+0.96*30)
	near("remote_delay_ms.max", r.RemoteDelay.Max, 200)
	near("remote_delay_ratio", *r.RemoteDelayRatio, 160.0/140)
	near("remote_error.rms", r.RemoteError.RMS, math.Sqrt(0.25/5))
	near("remote_error.max", r.RemoteError.Max, 0.4)
	// Playback at 160 ms behind: the server had x = 16.8, 26.8, 36.8, 46.8, 56.8.
	near("remote_playback_error.rms", r.RemotePlaybackError.RMS, math.Sqrt(0.13/5))
	near("remote_playback_error.max", r.RemotePlaybackError.Max, 0.3)
	// Only the pongs in the window: 40, 50, 60 ms.
	near("rtt_ms.p50", r.RTT.P50, 50)
	near("rtt_ms.p99", r.RTT.P99, 59.8)
	near("rtt_ms.max", r.RTT.Max, 60)
	// First frame to last: bot 1 700 B up and 3500 down in 3.5 s, bot 2 300 and 6000 in 3 s.
	if len(r.Clients) != 2 {
		t.Fatalf("%d clients, want 2", len(r.Clients))
	}
	near("clients[0].bytes_per_s.up", r.Clients[0].BytesPerSecond.Up, 200)
	near("clients[0].bytes_per_s.down", r.Clients[0].BytesPerSecond.Down, 1000)
	near("clients[1].bytes_per_s.up", r.Clients[1].BytesPerSecond.Up, 100)
	near("clients[1].bytes_per_s.down", r.Clients[1].BytesPerSecond.Down, 2000)
	near("bytes_per_s.up", r.BytesPerSecond.Up, 150)
	near("bytes_per_s.down", r.BytesPerSecond.Down, 1500)
	if !slices.ContainsFunc(r.Notes, func(n string) bool { return strings.Contains(n, "uniform random subset") }) {
		t.Errorf("notes = %q, want one saying the samples were thinned", r.Notes)
	}
}

func TestFrameLogCountsExactlyAtBothEnds(t *testing.T) {
	var l frameLog
	n := 3 * logFrames // the middle logFrames frames are dropped
	for i := range n {
		l.add(time.Duration(i)*time.Millisecond, 2, i%2)
	}
	ms := func(i int) time.Duration { return time.Duration(i) * time.Millisecond }
	tests := []struct {
		from, to      time.Duration
		remotes, hold int64
		exact         bool
	}{
		{ms(10), ms(19), 20, 5, true},                              // in the head
		{ms(n - 20), ms(n - 11), 20, 5, true},                      // in the tail
		{ms(5), ms(n + 100), 2 * int64(n-5), int64(n-4) / 2, true}, // head to past the end
		{-time.Second, ms(3), 8, 2, true},                          // from before the first frame
		{ms(logFrames + 10), ms(n - 5), 0, 0, false},               // starts among dropped frames
		{ms(7), ms(3), 0, 0, true},                                 // empty
	}
	for _, tt := range tests {
		r, h, exact := l.between(tt.from, tt.to)
		if exact != tt.exact || (tt.exact && (r != tt.remotes || h != tt.hold)) {
			t.Errorf("between(%v, %v) = %d, %d, %v, want %d, %d, %v", tt.from, tt.to, r, h, exact, tt.remotes, tt.hold, tt.exact)
		}
	}
}
