package server

import (
	"fmt"
	"reflect"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"tanknet/wire"
)

// A drop's Stats label, Disconnect code and text all come from its kind; the label is
// chosen by the code alone, whatever the text says.
func TestDropReason_CodeGivesLabelAndText(t *testing.T) {
	for _, tt := range []struct {
		reason dropReason
		code   wire.DisconnectCode
		label  string
		text   string
	}{
		{dropTimeout.reason("nothing received for 5s"), wire.DisconnectTimeout, "timeout", "timed out: nothing received for 5s"},
		{dropProtocol.reason("second Hello"), wire.DisconnectProtocolError, "protocol_error", "protocol error: second Hello"},
		{dropSlow.reason("control queue full"), wire.DisconnectCannotKeepUp, "cannot_keep_up", "cannot keep up: control queue full"},
		{dropNoAck.reason("nothing acknowledged for 30s"), wire.DisconnectNotAcknowledging, "not_acknowledging", "not acknowledging: nothing acknowledged for 30s"},
		{dropShutdown.reason(""), wire.DisconnectShuttingDown, dropOther, "server shutting down"},
		// Text that reads like another kind does not change the label: the code decides.
		{dropProtocol.reason("timed out: a detail that looks like a timeout"), wire.DisconnectProtocolError, "protocol_error", "protocol error: timed out: a detail that looks like a timeout"},
	} {
		if !tt.reason.dropping() {
			t.Errorf("%q is not a drop", tt.reason)
		}
		d := tt.reason.disconnect()
		if d.Code != tt.code || d.Reason != tt.text {
			t.Errorf("disconnect of %q = %+v, want code %v text %q", tt.reason, d, tt.code, tt.text)
		}
		var c counters
		c.drop(tt.reason)
		if got := c.snapshot().DropsByReason; len(got) != 1 || got[tt.label] != 1 {
			t.Errorf("drop %q counted as %v, want %s=1", tt.reason, got, tt.label)
		}
	}
	if (dropReason{}).dropping() {
		t.Error("the zero dropReason is a drop")
	}
	for _, k := range dropKinds {
		if dropLabel(k.code) != k.label {
			t.Errorf("dropLabel(%v) = %q, want %q", k.code, dropLabel(k.code), k.label)
		}
	}
	if got := dropLabel(wire.DisconnectCode(99)); got != dropOther {
		t.Errorf("dropLabel of an unknown code = %q, want %q", got, dropOther)
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
