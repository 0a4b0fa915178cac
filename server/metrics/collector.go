package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"tanknet/server"
)

// namespace prefixes every metric this package defines.
const namespace = server.Namespace

// collector turns one server.Stats into Prometheus metrics at every scrape: every metric of
// server.Metrics, each labelled one with every value its label takes (zero until counted),
// and the rooms' figures.
type collector struct {
	stats func() server.Stats
	descs []*prometheus.Desc // one per server.Metrics entry, in its order
	rooms roomDescs
}

// Collector returns a Prometheus collector of the tanknet_ metrics, reading stats (usually a
// running server's Stats method) at every collection. Handler registers one; use Collector
// to add the metrics to a registry of your own.
func Collector(stats func() server.Stats) prometheus.Collector { return newCollector(stats) }

func newCollector(stats func() server.Stats) *collector {
	return &collector{stats: stats, descs: descsOf(server.Metrics), rooms: newRoomDescs()}
}

// descsOf describes each of ms, with extra labels before its own.
func descsOf[S any](ms []*server.Metric[S], extra ...string) []*prometheus.Desc {
	var out []*prometheus.Desc
	for _, m := range ms {
		labels := extra
		if m.Label != "" {
			labels = append(labels[:len(labels):len(labels)], m.Label)
		}
		out = append(out, prometheus.NewDesc(prometheus.BuildFQName(namespace, "", m.Name), m.Help, labels, nil))
	}
	return out
}

// Describe sends every metric description.
func (c *collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range c.descs {
		ch <- d
	}
	c.rooms.describe(ch)
}

// Collect reads the server's stats once and sends them as metrics.
func (c *collector) Collect(ch chan<- prometheus.Metric) {
	st := c.stats()
	collect(ch, server.Metrics, c.descs, &st)
	c.rooms.collect(ch, st.Rooms)
}

// collect sends the value in s of each of ms, described by descs, with extra label values
// before its own.
func collect[S any](ch chan<- prometheus.Metric, ms []*server.Metric[S], descs []*prometheus.Desc, s *S, extra ...string) {
	for i, m := range ms {
		switch m.Kind {
		case server.HistogramMetric:
			ch <- histogram(descs[i], m.Histogram(s), extra...)
		case server.GaugeMetric:
			sendSeries(ch, descs[i], prometheus.GaugeValue, m, s, extra)
		default:
			sendSeries(ch, descs[i], prometheus.CounterValue, m, s, extra)
		}
	}
}

// sendSeries sends every series of the counter or gauge m in s.
func sendSeries[S any](ch chan<- prometheus.Metric, d *prometheus.Desc, kind prometheus.ValueType, m *server.Metric[S], s *S, extra []string) {
	for v, n := range m.Series(s) {
		labels := extra
		if m.Label != "" {
			labels = append(labels[:len(labels):len(labels)], v)
		}
		ch <- prometheus.MustNewConstMetric(d, kind, float64(n), labels...)
	}
}

// histogram converts one of the server's histograms (counts per bucket) into Prometheus's
// form (cumulative counts by upper bound).
func histogram(d *prometheus.Desc, h server.Histogram, labels ...string) prometheus.Metric {
	buckets := make(map[float64]uint64, len(h.UpperBounds))
	var cum uint64
	for i, ub := range h.UpperBounds {
		cum += h.Counts[i]
		buckets[ub] = cum
	}
	return prometheus.MustNewConstHistogram(d, h.Count, h.Sum, buckets, labels...)
}
