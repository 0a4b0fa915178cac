package server

import (
	"fmt"
	"reflect"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

func TestDropLabel(t *testing.T) {
	for reason, want := range map[string]string{
		dropTimeout.reason("nothing received for 5s"): "timeout",
		"protocol error: second Hello":                "protocol_error",
		dropSlow.reason("control queue full"):         "cannot_keep_up",
		"cannot keep up: transport: write timeout":    "cannot_keep_up",
		dropNoAck.reason("nothing acknowledged"):      "not_acknowledging",
		"something new":                               dropOther,
		"timed outside":                               dropOther,
	} {
		if got := dropLabel(reason); got != want {
			t.Errorf("dropLabel(%q) = %q, want %q", reason, got, want)
		}
	}
}

// Every labelled metric declares every value its label takes, so each is exported at zero
// from the start; an empty Stats shows them all.
func TestMetrics_LabelledCountsStartAtZero(t *testing.T) {
	want := map[string][]string{
		"drops_total":          {"cannot_keep_up", "not_acknowledging", "other", "protocol_error", "timeout"},
		"inputs_refused_total": {"duration", "inbox_full", "not_finite", "too_far_ahead"},
		"rejects_total":        {"bad_hello", "busy", "no_room", "server_full", "shutting_down", "version_mismatch"},
		"shots_refused_total":  {"bad_view", "cooldown", "destroyed", "future_view", "stale_tick", "unplayed_tick", "view_too_old"},
	}
	names := map[string]bool{}
	for _, m := range Metrics {
		if names[m.Name] {
			t.Errorf("metric %s declared twice", m.Name)
		}
		names[m.Name] = true
		series := m.Series(&Stats{})
		if m.Label == "" {
			continue
		}
		if w, ok := want[m.Name]; ok && !slices.Equal(m.Values, w) {
			t.Errorf("%s values %v, want %v", m.Name, m.Values, w)
		}
		for _, v := range m.Values {
			if n, ok := series[v]; !ok || n != 0 {
				t.Errorf("%s: an empty Stats gives %s=%d (present %v), want 0", m.Name, v, n, ok)
			}
		}
	}
	for name := range want {
		if !names[name] {
			t.Errorf("metric %s missing from the table", name)
		}
	}
	st := Stats{DropsByReason: map[string]uint64{"timeout": 2}}
	if got := Metrics[slices.IndexFunc(Metrics, func(m *Metric) bool { return m.Name == "drops_total" })].Series(&st); got["timeout"] != 2 || got["other"] != 0 {
		t.Errorf("drops_total series %v, want timeout=2 and the rest 0", got)
	}
	if got := MetricStates.SeriesName("moving"); got != `tanknet_snapshot_states_total{motion="moving"}` {
		t.Errorf("SeriesName = %s", got)
	}
}

func TestTickHistogram_BucketsByUpperBound(t *testing.T) {
	var h tickHistogram
	for _, d := range []time.Duration{0, 50 * time.Microsecond, 51 * time.Microsecond, 2 * time.Millisecond, time.Second} {
		h.observe(d)
	}
	s := h.snapshot()
	want := map[time.Duration]uint64{50 * time.Microsecond: 2, 100 * time.Microsecond: 1, 2 * time.Millisecond: 1}
	for i, ub := range s.UpperBounds {
		if s.Counts[i] != want[ub] {
			t.Errorf("bucket <= %v holds %d, want %d", ub, s.Counts[i], want[ub])
		}
	}
	if wantSum := time.Second + 2*time.Millisecond + 101*time.Microsecond; s.Count != 5 || s.Sum != wantSum {
		t.Errorf("count %d sum %v, want 5 and %v (the 1 s tick counts beyond the last bucket)", s.Count, s.Sum, wantSum)
	}
}

// Every count the server keeps reaches Stats and the metrics: each live counter of the
// Metrics table shows its own value in the snapshot's series, each tally its labels, and no
// atomic counter of counters is left out of the table but the few snapshot reads itself.
func TestMetrics_EveryLiveCountReachesStats(t *testing.T) {
	c := new(counters)
	covered := map[*atomic.Uint64]bool{&c.rejects: true, &c.drops: true, // totals of labelled counts
		&c.statesMoving: true, &c.statesIdle: true, &c.stateBytesMoving: true, &c.stateBytesIdle: true} // per motion
	for i, m := range Metrics {
		switch {
		case m.live != nil:
			m.live(c).Store(uint64(1000 + i))
			covered[m.live(c)] = true
		case m.tally != nil:
			m.tally(c).add(fmt.Sprint("label", i))
		}
	}
	st := c.snapshot()
	for i, m := range Metrics {
		switch got := m.Series(&st); {
		case m.live != nil && got[""] != uint64(1000+i):
			t.Errorf("%s: Stats shows %d, want the live count %d", m.Name, got[""], 1000+i)
		case m.tally != nil && got[fmt.Sprint("label", i)] != 1:
			t.Errorf("%s: Stats shows %v, want label%d counted once", m.Name, got, i)
		}
	}
	v := reflect.ValueOf(c).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		if f.Type() != reflect.TypeOf(atomic.Uint64{}) {
			continue
		}
		if !covered[(*atomic.Uint64)(f.Addr().UnsafePointer())] {
			t.Errorf("counters.%s is in no Metric of the table", v.Type().Field(i).Name)
		}
	}
}
