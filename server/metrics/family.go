package metrics

import (
	"slices"

	"github.com/prometheus/client_golang/prometheus"

	"tanknet/server"
)

// A family is one metric of /metrics: its name, help, type and labels (desc), and how its
// series are read from one server.Stats. The constructors below make the kinds the server
// has; each file of this package declares the families of one part of the server with
// them, every one beside the field of server.Stats it reads.
type family struct {
	desc    *prometheus.Desc
	kind    prometheus.ValueType // a counter's or a gauge's; a histogram ignores it
	collect func(out series, st *server.Stats)
}

// newFamily describes the metric server.Namespace_name, whose series collect sends.
func newFamily(name, help string, kind prometheus.ValueType, labels []string, collect func(series, *server.Stats)) family {
	desc := prometheus.NewDesc(prometheus.BuildFQName(server.Namespace, "", name), help, labels, nil)
	return family{desc: desc, kind: kind, collect: collect}
}

// counter is a running total, read from one field.
func counter(name, help string, read func(*server.Stats) uint64) family {
	return newFamily(name, help, prometheus.CounterValue, nil, func(out series, st *server.Stats) {
		out.value(float64(read(st)))
	})
}

// gauge is a level that goes up and down, read from one field.
func gauge(name, help string, read func(*server.Stats) int) family {
	return newFamily(name, help, prometheus.GaugeValue, nil, func(out series, st *server.Stats) {
		out.value(float64(read(st)))
	})
}

// counterBy is a running total split by label: a series for each of values, at zero until
// counted, and one for any other key the split read holds.
func counterBy(name, help, label string, values []string, read func(*server.Stats) map[string]uint64) family {
	return newFamily(name, help, prometheus.CounterValue, []string{label}, func(out series, st *server.Stats) {
		counts := read(st)
		for _, v := range values {
			out.value(float64(counts[v]), v)
		}
		for v, n := range counts {
			if !slices.Contains(values, v) {
				out.value(float64(n), v)
			}
		}
	})
}

// histogram is a distribution, read from one field.
func histogram(name, help string, read func(*server.Stats) server.Histogram) family {
	return newFamily(name, help, prometheus.UntypedValue, nil, func(out series, st *server.Stats) {
		out.histogram(read(st))
	})
}

// series sends the series of one family while the registry collects.
type series struct {
	ch   chan<- prometheus.Metric
	desc *prometheus.Desc
	kind prometheus.ValueType
}

// value sends the series with labels of a counter or a gauge.
func (s series) value(v float64, labels ...string) {
	m, err := prometheus.NewConstMetric(s.desc, s.kind, v, labels...)
	s.send(m, err)
}

// histogram sends the series with labels of a histogram, converting the server's form
// (counts per bucket) into Prometheus's (cumulative counts by upper bound).
func (s series) histogram(h server.Histogram, labels ...string) {
	buckets := make(map[float64]uint64, len(h.UpperBounds))
	var cum uint64
	for i, ub := range h.UpperBounds {
		cum += h.Counts[i]
		buckets[ub] = cum
	}
	m, err := prometheus.NewConstHistogram(s.desc, h.Count, h.Sum, buckets, labels...)
	s.send(m, err)
}

// send sends m, or, when it could not be made, err: the registry then fails the scrape
// with it instead of the program stopping.
func (s series) send(m prometheus.Metric, err error) {
	if err != nil {
		m = prometheus.NewInvalidMetric(s.desc, err)
	}
	s.ch <- m
}
