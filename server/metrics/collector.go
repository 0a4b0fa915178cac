package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"tanknet/server"
)

// namespace prefixes every metric this package defines.
const namespace = server.Namespace

// collector turns one server.Stats into Prometheus metrics at every scrape: the tick
// histogram, and every metric of server.Metrics, each labelled one with every value its
// label takes (zero until counted).
type collector struct {
	stats        func() server.Stats
	tickDuration *prometheus.Desc
	descs        []*prometheus.Desc // one per server.Metrics entry, in its order
	rooms        roomDescs
}

// Collector returns a Prometheus collector of the tanknet_ metrics, reading stats (usually a
// running server's Stats method) at every collection. Handler registers one; use Collector
// to add the metrics to a registry of your own.
func Collector(stats func() server.Stats) prometheus.Collector { return newCollector(stats) }

func newCollector(stats func() server.Stats) *collector {
	c := &collector{stats: stats, tickDuration: prometheus.NewDesc(prometheus.BuildFQName(namespace, "", "tick_duration_seconds"),
		"Wall time of one server tick on its room's world goroutine, every room's ticks together: admit inputs, simulate, resolve contact, encode tank states; with interest management, per-client snapshots are built after it on worker goroutines.", nil, nil),
		rooms: newRoomDescs()}
	for _, m := range server.Metrics {
		var labels []string
		if m.Label != "" {
			labels = []string{m.Label}
		}
		c.descs = append(c.descs, prometheus.NewDesc(prometheus.BuildFQName(namespace, "", m.Name), m.Help, labels, nil))
	}
	return c
}

// Describe sends every metric description.
func (c *collector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.tickDuration
	for _, d := range c.descs {
		ch <- d
	}
	c.rooms.describe(ch)
}

// Collect reads the server's stats once and sends them as metrics.
func (c *collector) Collect(ch chan<- prometheus.Metric) {
	st := c.stats()
	ch <- tickHistogram(c.tickDuration, st.TickDuration)
	c.rooms.collect(ch, st.Rooms)
	for i, m := range server.Metrics {
		kind := prometheus.CounterValue
		if m.Gauge {
			kind = prometheus.GaugeValue
		}
		for v, n := range m.Series(&st) {
			if m.Label == "" {
				ch <- prometheus.MustNewConstMetric(c.descs[i], kind, float64(n))
			} else {
				ch <- prometheus.MustNewConstMetric(c.descs[i], kind, float64(n), v)
			}
		}
	}
}

// tickHistogram converts the server's tick histogram (counts per bucket) into Prometheus's
// form (cumulative counts by upper bound in seconds).
func tickHistogram(d *prometheus.Desc, h server.TickHistogram, labels ...string) prometheus.Metric {
	buckets := make(map[float64]uint64, len(h.UpperBounds))
	var cum uint64
	for i, ub := range h.UpperBounds {
		cum += h.Counts[i]
		buckets[ub.Seconds()] = cum
	}
	return prometheus.MustNewConstHistogram(d, h.Count, h.Sum.Seconds(), buckets, labels...)
}
