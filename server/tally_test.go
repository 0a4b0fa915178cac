package server

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
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
	if got := dropLabel(dropKind{wire.DisconnectCode(99), "odd"}); got != dropOther {
		t.Errorf("dropLabel of a kind not among dropKinds = %q, want %q", got, dropOther)
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
		if m.Label == "" {
			continue
		}
		series := m.Series(&Stats{})
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
	if got := Metrics[slices.IndexFunc(Metrics, func(m *Metric[Stats]) bool { return m.Name == "drops_total" })].Series(&st); got["timeout"] != 2 || got["other"] != 0 {
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

// Every count the server keeps reaches Stats and the metrics: each live count of counters
// and of bufferStats, set to a value of its own, shows in some metric's series (a tally as a
// label counted once, a histogram as its count), so a count added without a Stats field and
// a metric cannot go unnoticed.
func TestMetrics_EveryLiveCountReachesStats(t *testing.T) {
	c := new(counters)
	want := bump(t, c)
	st := c.snapshot()
	for name, n := range want {
		if !shows(Metrics, &st, n) {
			t.Errorf("counters.%s = %v is in no series of Metrics (Stats %+v)", name, n, st)
		}
	}
	if st.Rejects != 1 || st.Drops != 1 {
		t.Errorf("Rejects %d, Drops %d, want 1 each, the sums of their splits", st.Rejects, st.Drops)
	}

	b := newBufferStats()
	want = bump(t, b)
	in := b.snapshot()
	for name, n := range want {
		if !shows(InputBufferMetrics, &in, n) {
			t.Errorf("bufferStats.%s = %v is in no series of InputBufferMetrics (%+v)", name, n, in)
		}
	}
}

// bump sets every live count of *live to a value of its own, as the count's own methods
// would, and returns that value by field name: a number, or a label counted once.
func bump(t *testing.T, live any) map[string]any {
	v := reflect.ValueOf(live).Elem()
	want := map[string]any{}
	for i := range v.NumField() {
		f := v.Field(i)
		name := v.Type().Field(i).Name
		n := uint64(1000 + i)
		switch p := reflect.NewAt(f.Type(), f.Addr().UnsafePointer()).Interface().(type) {
		case *atomic.Uint64:
			p.Store(n)
			want[name] = n
		case *atomic.Int64:
			p.Store(int64(n))
			want[name] = n
		case *tally:
			p.add(fmt.Sprint("label", i))
			want[name] = fmt.Sprint("label", i)
		case *tickHistogram:
			for range n {
				p.observe(time.Millisecond)
			}
			want[name] = n
		case *liveHistogram:
			for range n {
				p.observe(0.5)
			}
			want[name] = n
		default:
			t.Fatalf("%T.%s: the test does not know how to count a %T", live, name, p)
		}
	}
	return want
}

// shows reports whether one of ms shows want in s: a label counted once, or a value of a
// series or a histogram's count.
func shows[S any](ms []*Metric[S], s *S, want any) bool {
	for _, m := range ms {
		if m.Kind == HistogramMetric {
			if m.Histogram(s).Count == want {
				return true
			}
			continue
		}
		for label, n := range m.Series(s) {
			if label == want && n == 1 || n == want {
				return true
			}
		}
	}
	return false
}

// A mistake in the tags stops the program at its start, with the field named: a live count
// no field shows, a tag naming no count or one of another type, a count shown twice, a
// count with no metric, a metric without help or its label's values.
func TestCountTags_MistakesPanic(t *testing.T) {
	type live struct{ a, b atomic.Uint64 }
	for _, tt := range []struct {
		name, want string
		read       func()
	}{
		{"a count no field shows", "live.b", func() {
			readerOf[live, struct {
				A uint64 `counter:"a"`
			}]()
		}},
		{"a count that does not exist", "c", func() {
			readerOf[live, struct {
				A uint64 `counter:"a"`
				B uint64 `counter:"b"`
				C uint64 `counter:"c"`
			}]()
		}},
		{"a count shown twice", "both show", func() {
			readerOf[live, struct {
				A  uint64 `counter:"a"`
				B  uint64 `counter:"b"`
				A2 uint64 `counter:"a"`
			}]()
		}},
		{"a count of another type", "cannot hold", func() {
			readerOf[live, struct {
				A map[string]uint64 `counter:"a"`
				B uint64            `counter:"b"`
			}]()
		}},
		{"a sum of no map", "sums", func() {
			readerOf[live, struct {
				A     uint64 `counter:"a"`
				B     uint64 `counter:"b"`
				Total uint64 `sum:"A"`
			}]()
		}},
		{"a count without metric", "no metric", func() {
			metricsOf[struct {
				A uint64 `counter:"a"`
			}]()
		}},
		{"a metric without help", "no help", func() {
			metricsOf[struct {
				A uint64 `metric:"a_total"`
			}]()
		}},
		{"a label without its values", "values", func() {
			metricsOf[struct {
				A map[string]uint64 `metric:"a_total" label:"kind" help:"As."`
			}]()
		}},
		{"a metric repeated, not split", "repeats", func() {
			metricsOf[struct {
				A uint64 `metric:"a_total" help:"As."`
				B uint64 `metric:"a_total"`
			}]()
		}},
		{"a gauge that is a map", "cannot be", func() {
			metricsOf[struct {
				A map[string]uint64 `metric:"a,gauge" help:"As."`
			}]()
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if got := fmt.Sprint(recover()); !strings.Contains(got, tt.want) {
					t.Errorf("panic %q, want one naming %q", got, tt.want)
				}
			}()
			tt.read()
		})
	}
}

// A metric split over fields, one per value of its label, shows each field under its value.
func TestMetric_SplitOverFields(t *testing.T) {
	st := Stats{StatesMoving: 5, StatesIdle: 7, StateBytesMoving: 50, StateBytesIdle: 21}
	if got := MetricStates.Series(&st); !maps.Equal(got, map[string]uint64{"moving": 5, "idle": 7}) {
		t.Errorf("%s series %v, want moving=5 idle=7", MetricStates.Name, got)
	}
	if got := MetricStateBytes.Series(&st); !maps.Equal(got, map[string]uint64{"moving": 50, "idle": 21}) {
		t.Errorf("%s series %v, want moving=50 idle=21", MetricStateBytes.Name, got)
	}
}

func TestTickHistogram_Seconds(t *testing.T) {
	h := TickHistogram{UpperBounds: []time.Duration{time.Millisecond, 50 * time.Millisecond}, Counts: []uint64{3, 1}, Count: 5, Sum: 1500 * time.Millisecond}
	got := h.Seconds()
	if want := (Histogram{UpperBounds: []float64{0.001, 0.05}, Counts: []uint64{3, 1}, Count: 5, Sum: 1.5}); !reflect.DeepEqual(got, want) {
		t.Errorf("Seconds() = %+v, want %+v", got, want)
	}
}
