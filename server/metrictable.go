package server

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"tanknet/wire"
	"tanknet/world"
)

// Namespace prefixes the name of every metric the server exports.
const Namespace = "tanknet"

// Metric is one of the server's figures as it is exported: its name, what it means, the
// label that splits it and every value that label takes. It is not declared here but read
// from the tags of the fields of S that hold it (see Stats for the tags), so a figure and
// its metric cannot drift apart. The Prometheus collector (server/metrics) and tanksim read
// S through it, and a labelled count is exported at zero for every value before the first
// event.
type Metric[S any] struct {
	Name   string     // without the Namespace prefix
	Help   string     // one sentence for /metrics
	Kind   MetricKind // counter, gauge or histogram
	Label  string     // the label splitting the metric; "" for one series
	Values []string   // every value of Label

	// fields are the indexes in S of the fields holding the metric: one, or with perValue
	// one per value of Label, in the order of Values.
	fields   []int
	perValue bool
}

// MetricKind is what a Metric measures and how it is exported.
type MetricKind uint8

const (
	CounterMetric   MetricKind = iota // a running total
	GaugeMetric                       // a level that goes up and down
	HistogramMetric                   // a distribution (a TickHistogram or a Histogram field)
)

// Metrics lists every metric of Stats, in the order of its fields. The per-room metrics are
// InputBufferMetrics and, declared in server/metrics, the rooms' players and tick durations;
// the gate's counts (Stats.Gate) have a collector of their own.
var Metrics = metricsOf[Stats]()

// InputBufferMetrics lists the metrics of each room's InputBufferStats, which /metrics
// exports with the room's name as label "room".
var InputBufferMetrics = metricsOf[InputBufferStats]()

// The metrics tanksim reads by name.
var (
	MetricStates     = metricNamed(Metrics, "snapshot_states_total")
	MetricStateBytes = metricNamed(Metrics, "snapshot_state_bytes_total")
)

// labelValues are the lists of label values a map field names with its values tag.
var labelValues = map[string]func() []string{
	"rejectCodes":  rejectLabels,
	"dropKinds":    dropLabels,
	"inputRules":   func() []string { return inputRules },
	"pushRefusals": world.PushRefusalLabels,
	"refusalNames": refusalLabels,
}

// Series returns the value of the counter or gauge m in s by label value ("" for an
// unlabelled metric): every declared value, counted or not, plus any other value s holds.
func (m *Metric[S]) Series(s *S) map[string]uint64 {
	if m.Kind == HistogramMetric {
		panic("server: " + m.Name + " is a histogram: read it with Histogram")
	}
	v := reflect.ValueOf(s).Elem()
	if m.Label == "" {
		return map[string]uint64{"": count(v.Field(m.fields[0]))}
	}
	out := make(map[string]uint64, len(m.Values))
	if m.perValue {
		for i, value := range m.Values {
			out[value] = count(v.Field(m.fields[i]))
		}
		return out
	}
	for _, value := range m.Values {
		out[value] = 0
	}
	for value, n := range v.Field(m.fields[0]).Interface().(map[string]uint64) {
		out[value] += n
	}
	return out
}

// Histogram returns the value of the histogram m in s, its bounds in seconds for a
// TickHistogram.
func (m *Metric[S]) Histogram(s *S) Histogram {
	switch h := reflect.ValueOf(s).Elem().Field(m.fields[0]).Interface().(type) {
	case TickHistogram:
		return h.Seconds()
	case Histogram:
		return h
	}
	panic("server: " + m.Name + " is no histogram")
}

// SeriesName is how the Prometheus text format names the metric's series with label
// value v (v is ignored for an unlabelled metric), e.g. tanknet_drops_total{reason="timeout"}.
func (m *Metric[S]) SeriesName(v string) string {
	name := Namespace + "_" + m.Name
	if m.Label == "" {
		return name
	}
	return name + "{" + m.Label + `="` + v + `"}`
}

// count reads a counter or gauge field: a uint64 or an int.
func count(f reflect.Value) uint64 {
	if f.CanUint() {
		return f.Uint()
	}
	return uint64(f.Int())
}

// metricsOf reads the metrics of S from the tags of its fields. A field with a metric tag
// holds one metric, or one value of its label. It panics, naming the field, on a tag it
// cannot read: that is a mistake in this package, found when the program starts.
func metricsOf[S any]() []*Metric[S] {
	t := reflect.TypeFor[S]()
	var out []*Metric[S]
	for i := range t.NumField() {
		f := t.Field(i)
		where := t.String() + "." + f.Name
		spec, ok := f.Tag.Lookup("metric")
		if !ok {
			continue
		}
		name, kind, err := metricKind(spec, f.Type)
		if err != nil {
			panic(fmt.Sprintf("server: %s: %v", where, err))
		}
		label, value, oneValue := strings.Cut(f.Tag.Get("label"), "=")
		help := f.Tag.Get("help")
		j := slices.IndexFunc(out, func(m *Metric[S]) bool { return m.Name == name })
		switch {
		case j >= 0: // a further value of a metric split over fields
			m := out[j]
			if !oneValue || !m.perValue || m.Label != label || help != "" || m.Kind != kind {
				panic(fmt.Sprintf("server: %s repeats metric %s: only another value of its label may, without help", where, name))
			}
			m.Values = append(m.Values, value)
			m.fields = append(m.fields, i)
			continue
		case help == "":
			panic(fmt.Sprintf("server: %s: metric %s has no help", where, name))
		}
		m := &Metric[S]{Name: name, Help: help, Kind: kind, Label: label, fields: []int{i}}
		switch {
		case oneValue:
			if kind == HistogramMetric || f.Type.Kind() == reflect.Map {
				panic(fmt.Sprintf("server: %s: only a count can hold one value of a label", where))
			}
			m.Values, m.perValue = []string{value}, true
		case label != "":
			values, ok := labelValues[f.Tag.Get("values")]
			if !ok || f.Type != reflect.TypeFor[map[string]uint64]() {
				panic(fmt.Sprintf("server: %s: a label needs a map[string]uint64 and values naming a list of labelValues", where))
			}
			m.Values = values()
		}
		out = append(out, m)
	}
	return out
}

// metricKind reads a metric tag, "name" or "name,gauge", for a field of type t.
func metricKind(spec string, t reflect.Type) (string, MetricKind, error) {
	name, opt, _ := strings.Cut(spec, ",")
	switch {
	case t == reflect.TypeFor[TickHistogram]() || t == reflect.TypeFor[Histogram]():
		return name, HistogramMetric, nil
	case opt == "gauge" && (t.Kind() == reflect.Int || t.Kind() == reflect.Uint64):
		return name, GaugeMetric, nil
	case opt == "" && (t.Kind() == reflect.Uint64 || t == reflect.TypeFor[map[string]uint64]()):
		return name, CounterMetric, nil
	}
	return "", 0, fmt.Errorf("metric %q cannot be a %v", spec, t)
}

// metricNamed returns the metric of ms called name.
func metricNamed[S any](ms []*Metric[S], name string) *Metric[S] {
	for _, m := range ms {
		if m.Name == name {
			return m
		}
	}
	panic("server: no metric " + name)
}

// rejectLabels returns the label of every reject code a server sends.
func rejectLabels() []string {
	var out []string
	for _, c := range wire.RejectCodes() {
		out = append(out, c.String())
	}
	return sorted(out)
}

// refusalLabels returns the label of every reason a Fire is refused for.
func refusalLabels() []string {
	var out []string
	for _, r := range wire.Refusals() {
		out = append(out, r.Label())
	}
	return sorted(out)
}

func sorted(s []string) []string {
	slices.Sort(s)
	return s
}
