package main

import (
	"github.com/prometheus/client_golang/prometheus"

	"tanknet/carriage"
	"tanknet/server"
)

// hubCollector turns the browsers' door (carriage.HubStats) into the tanknet_web_ metrics:
// offers answered and refused, peers open, joined and dropped, and what the door threw away.
type hubCollector struct {
	stats func() carriage.HubStats

	peers, offers, refused, joined, dropped, queueDrops, bufferDrops, extraChannels, textMessages *prometheus.Desc
}

func newHubCollector(stats func() carriage.HubStats) *hubCollector {
	d := func(name, help string, labels ...string) *prometheus.Desc {
		return prometheus.NewDesc(prometheus.BuildFQName(server.Namespace, "web", name), help, labels, nil)
	}
	return &hubCollector{
		stats:         stats,
		peers:         d("peers", "Browser peer connections open right now."),
		offers:        d("offers_answered_total", "WebRTC offers answered with 200."),
		refused:       d("offers_refused_total", "WebRTC offers refused, by reason.", "reason"),
		joined:        d("peers_joined_total", "Browser peers the game admitted (sent a datagram past the connect handshake)."),
		dropped:       d("peers_dropped_total", "Browser peer connections closed by the server or lost, by reason.", "reason"),
		queueDrops:    d("queue_drops_total", "Datagrams from browsers dropped because the game's reader fell behind."),
		bufferDrops:   d("buffer_drops_total", "Datagrams to browsers dropped because their channel held too much unsent."),
		extraChannels: d("extra_channels_total", "Data channels closed because their peer already had its one."),
		textMessages:  d("text_messages_total", "Text messages from browsers dropped (every datagram is a binary message)."),
	}
}

// Describe sends every metric description.
func (c *hubCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.peers, c.offers, c.refused, c.joined, c.dropped, c.queueDrops, c.bufferDrops, c.extraChannels, c.textMessages} {
		ch <- d
	}
}

// Collect reads the Hub's stats once and sends its metrics, each labelled one for every
// reason it can count (0 until counted).
func (c *hubCollector) Collect(ch chan<- prometheus.Metric) {
	st := c.stats()
	send := func(d *prometheus.Desc, kind prometheus.ValueType, v float64, labels ...string) {
		m, err := prometheus.NewConstMetric(d, kind, v, labels...)
		if err != nil { // the scrape fails with err; the program goes on
			m = prometheus.NewInvalidMetric(d, err)
		}
		ch <- m
	}
	counter := func(d *prometheus.Desc, v uint64, labels ...string) {
		send(d, prometheus.CounterValue, float64(v), labels...)
	}
	send(c.peers, prometheus.GaugeValue, float64(st.Peers))
	counter(c.offers, st.Offers)
	for _, why := range carriage.RefusalReasons {
		counter(c.refused, st.Refused[why], why)
	}
	counter(c.joined, st.Joined)
	for _, why := range carriage.DropReasons {
		counter(c.dropped, st.Dropped[why], why)
	}
	counter(c.queueDrops, st.QueueDrops)
	counter(c.bufferDrops, st.BufferDrops)
	counter(c.extraChannels, st.ExtraChannels)
	counter(c.textMessages, st.TextMessages)
}
