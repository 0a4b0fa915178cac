package metrics

import (
	"slices"

	"github.com/prometheus/client_golang/prometheus"

	"tanknet/server"
)

// collector turns one server.Stats into the tanknet_ metrics at every scrape.
type collector struct {
	stats    func() server.Stats
	families []family
}

// Collector returns a Prometheus collector of the tanknet_ metrics, reading stats (usually a
// running server's Stats method) once at every collection. Handler registers one; use
// Collector to add the metrics to a registry of your own.
func Collector(stats func() server.Stats) prometheus.Collector {
	return &collector{stats: stats, families: families()}
}

// families lists every metric of the server's, by the part of it that counts.
func families() []family {
	return slices.Concat(playerFamilies(), inputFamilies(), playFamilies(), trafficFamilies(), roomFamilies(), gateFamilies())
}

// Describe sends every metric's description.
func (c *collector) Describe(ch chan<- *prometheus.Desc) {
	for _, f := range c.families {
		ch <- f.desc
	}
}

// Collect reads the server's stats once and sends every series of every metric.
func (c *collector) Collect(ch chan<- prometheus.Metric) {
	st := c.stats()
	for _, f := range c.families {
		f.collect(series{ch: ch, desc: f.desc, kind: f.kind}, &st)
	}
}
