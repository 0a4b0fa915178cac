package main

import (
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"

	"tanknet/discovery"
	"tanknet/server"
)

// discoveryOutcomes are the label values of tanknet_discovery_requests_total, one for each
// count of discovery.ResponderStats.
var discoveryOutcomes = []string{"answered", "limited", "malformed"}

// discoveryCollector turns LAN discovery's counts into tanknet_discovery_requests_total.
// The responder starts after /metrics does (it needs the game's port), so the collector
// reads whichever responder was set last, and zeros before that.
type discoveryCollector struct {
	responder atomic.Pointer[discovery.Responder]
	requests  *prometheus.Desc
}

func newDiscoveryCollector() *discoveryCollector {
	return &discoveryCollector{requests: prometheus.NewDesc(
		prometheus.BuildFQName(server.Namespace, "discovery", "requests_total"),
		"Datagrams read on the LAN discovery port, by what became of them (PROTOCOL.md §12).",
		[]string{"outcome"}, nil)}
}

// Describe sends the metric's description.
func (c *discoveryCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.requests }

// Collect sends one series for each outcome.
func (c *discoveryCollector) Collect(ch chan<- prometheus.Metric) {
	var st discovery.ResponderStats
	if r := c.responder.Load(); r != nil {
		st = r.Stats()
	}
	for i, v := range []uint64{st.Answered, st.Limited, st.Malformed} {
		ch <- prometheus.MustNewConstMetric(c.requests, prometheus.CounterValue, float64(v), discoveryOutcomes[i])
	}
}
