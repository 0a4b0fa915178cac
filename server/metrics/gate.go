package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"tanknet/server"
)

// gateCollector turns the address-validation counters (server.Stats.Gate) into metrics:
// what the connect handshake admitted, and what it dropped before any session existed.
type gateCollector struct {
	stats func() server.Stats

	admissions, challenges, admitted, replaced, dropped, bytes *prometheus.Desc
}

func newGateCollector(stats func() server.Stats) *gateCollector {
	d := func(name, help string, labels ...string) *prometheus.Desc {
		return prometheus.NewDesc(prometheus.BuildFQName(namespace, "gate", name), help, labels, nil)
	}
	return &gateCollector{
		stats:      stats,
		admissions: d("admissions", "Addresses admitted right now (they passed the connect handshake)."),
		challenges: d("challenges_total", "Challenges (cookies) sent."),
		admitted:   d("admitted_total", "Addresses admitted by a valid cookie."),
		replaced:   d("replaced_total", "Admitted addresses that started a new conversation after a fresh cookie."),
		dropped: d("dropped_total", "Datagrams dropped by address validation, by reason: unvalidated (address not admitted), "+
			"wrong_conv (admitted address, other conversation), bad_cookie, malformed, throttled (budget spent), full (too many admitted).", "reason"),
		bytes: d("unvalidated_bytes_total", "Bytes received from and sent to addresses not admitted (sent stays within 3x received).", "direction"),
	}
}

// Describe sends every metric description.
func (c *gateCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.admissions, c.challenges, c.admitted, c.replaced, c.dropped, c.bytes} {
		ch <- d
	}
}

// Collect reads the server's stats once and sends the gate's metrics.
func (c *gateCollector) Collect(ch chan<- prometheus.Metric) {
	g := c.stats().Gate
	ch <- prometheus.MustNewConstMetric(c.admissions, prometheus.GaugeValue, float64(g.Admissions))
	counter := func(d *prometheus.Desc, v uint64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, float64(v), labels...)
	}
	counter(c.challenges, g.Challenges)
	counter(c.admitted, g.Admitted)
	counter(c.replaced, g.Replaced)
	for reason, v := range map[string]uint64{
		"unvalidated": g.Unvalidated, "wrong_conv": g.WrongConv, "bad_cookie": g.BadCookies,
		"malformed": g.Malformed, "throttled": g.Throttled, "full": g.Full,
	} {
		counter(c.dropped, v, reason)
	}
	counter(c.bytes, g.BytesIn, "in")
	counter(c.bytes, g.BytesOut, "out")
}
