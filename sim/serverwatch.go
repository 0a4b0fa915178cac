package sim

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"sync"
	"time"

	"tanknet/internal/promtext"
	"tanknet/netcode"
	"tanknet/server"
)

// serverSample is what the server's counters said at one moment of a run.
type serverSample struct {
	at         time.Duration // since the run started
	cpuSeconds float64       // process CPU time so far (s); NaN when unknown
	moving     stateCount
	idle       stateCount
	rooms      map[string]histogram // each open room's tick durations so far
}

// stateCount is snapshot entries sent and their bytes (server.Stats.States*).
type stateCount struct{ states, bytes float64 }

// watchEvery is how often serverWatch samples a long run: often enough that the measured
// window's edges are within half a second of a sample.
const watchEvery = 500 * time.Millisecond

// watchPeriod is how often serverWatch samples a run of length d: every watchEvery, or a
// tenth of a shorter run (but no more than every 10 ms). A 1.5 s run's window is its length
// less the warm-up and the bots' staggered starts, about 1.1 s: at 500 ms it would hold two
// samples only while the bots start within 90 ms of each other and no sample is late, and
// bytes_per_tank needs two.
func watchPeriod(d time.Duration) time.Duration {
	return max(min(watchEvery, d/10), 10*time.Millisecond)
}

// serverWatch samples the server's counters during a run: an in-process server's Stats, or
// a separate tankserver's -metrics endpoint (which also gives its process CPU time).
type serverWatch struct {
	read func() (serverSample, error)

	mu      sync.Mutex
	samples []serverSample
	err     error // the first failed read, reported as a note
}

// watchInProcess samples srv's stats. Its CPU time is unknown: it shares the process with
// the bots.
func watchInProcess(srv *server.Server) *serverWatch {
	return &serverWatch{read: func() (serverSample, error) {
		st := srv.Stats()
		rooms := map[string]histogram{}
		for _, r := range st.Rooms {
			rooms[r.Name] = histogramOf(r.TickDuration)
		}
		return serverSample{cpuSeconds: nan(),
			moving: stateCount{float64(st.StatesMoving), float64(st.StateBytesMoving)},
			idle:   stateCount{float64(st.StatesIdle), float64(st.StateBytesIdle)},
			rooms:  rooms,
		}, nil
	}}
}

// The snapshot entries and their bytes a tankserver's -metrics shows, by label motion.
const (
	statesSeries     = server.Namespace + "_snapshot_states_total"
	stateBytesSeries = server.Namespace + "_snapshot_state_bytes_total"
)

// motionSeries names the series of metric with label motion, as the text format writes it.
func motionSeries(metric, motion string) string { return metric + `{motion="` + motion + `"}` }

// watchMetrics samples the Prometheus endpoint of a tankserver started with -metrics ADDR.
func watchMetrics(addr string) *serverWatch {
	url := "http://" + addr + "/metrics"
	hc := &http.Client{Timeout: 2 * time.Second}
	return &serverWatch{read: func() (serverSample, error) {
		resp, err := hc.Get(url)
		if err != nil {
			return serverSample{}, err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return serverSample{}, fmt.Errorf("GET %s: %s", url, resp.Status)
		}
		m, err := promtext.Read(resp.Body)
		if err != nil {
			return serverSample{}, err
		}
		cpu, ok := m["process_cpu_seconds_total"]
		if !ok {
			cpu = nan()
		}
		return serverSample{cpuSeconds: cpu,
			moving: stateCount{m[motionSeries(statesSeries, "moving")], m[motionSeries(stateBytesSeries, "moving")]},
			idle:   stateCount{m[motionSeries(statesSeries, "idle")], m[motionSeries(stateBytesSeries, "idle")]},
			rooms:  roomHistograms(m),
		}, nil
	}}
}

// run samples now and then every period until ctx is done.
func (w *serverWatch) run(ctx context.Context, start time.Time, period time.Duration) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		w.sample(start)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (w *serverWatch) sample(start time.Time) {
	s, err := w.read()
	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil {
		if w.err == nil {
			w.err = err
		}
		return
	}
	s.at = time.Since(start)
	w.samples = append(w.samples, s)
}

func nan() float64 { return math.NaN() }

// span returns the first and last samples within [from, to], and whether there are two.
func (w *serverWatch) span(from, to time.Duration) (first, last serverSample, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for _, s := range w.samples {
		if s.at < from || s.at > to {
			continue
		}
		if n == 0 {
			first = s
		}
		last = s
		n++
	}
	return first, last, n >= 2 && last.at > first.at
}

// serverCosts returns server_cpu_cores and bytes_per_tank over the measured window, nil
// where the run could not measure them (noted).
func (d *runData) serverCosts() (cpu *float64, perTank *TankBytes) {
	if d.watch == nil {
		return nil, nil
	}
	if d.watch.err != nil {
		d.notes = append(d.notes, "reading the server's counters failed: "+d.watch.err.Error())
	}
	first, last, ok := d.watch.span(d.windowStart, d.windowEnd)
	if !ok {
		d.notes = append(d.notes, "fewer than two samples of the server's counters in the window: server_cpu_cores and bytes_per_tank are null")
		return nil, nil
	}
	if c := (last.cpuSeconds - first.cpuSeconds) / (last.at - first.at).Seconds(); !math.IsNaN(c) {
		cpu = &c
	}
	per := func(a, b stateCount) *float64 {
		if n := b.states - a.states; n > 0 {
			return ptr((b.bytes - a.bytes) / n)
		}
		return nil
	}
	return cpu, &TankBytes{Moving: per(first.moving, last.moving), Idle: per(first.idle, last.idle)}
}

// snapshotsRatioMin returns the smallest snapshots-per-tick ratio of any bot (see
// Report.SnapshotsRatioMin), or nil when no bot played two frames.
func (d *runData) snapshotsRatioMin() *float64 {
	var worst *float64
	for _, b := range d.bots {
		ticks := b.probe.last.Sub(b.probe.first).Seconds() / netcode.StepInterval.Seconds()
		if ticks < 1 {
			continue
		}
		if r := float64(b.report.Snapshots) / ticks; worst == nil || r < *worst {
			worst = &r
		}
	}
	return worst
}
