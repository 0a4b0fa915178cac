package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"tanknet/server"
)

// namespace prefixes every metric this package defines.
const namespace = "tanknet"

// collector turns one server.Stats into Prometheus metrics at every scrape.
type collector struct {
	stats func() server.Stats

	tickDuration, players, handshaking                        *prometheus.Desc
	ticks, joins, leaves, contacts, badFrames, evicted        *prometheus.Desc
	bytesIn, bytesOut, datagramsIn, datagramsOut              *prometheus.Desc
	rejects, drops, refused                                   *prometheus.Desc
	inputsApplied, inputsStale, inputsClamped, inputsDeferred *prometheus.Desc
	states, stateBytes                                        *prometheus.Desc
	shots, hits, kills, respawns, firesDropped, shotsRefused  *prometheus.Desc
	inputsEarly, inputsRedundant, inputsPastGap               *prometheus.Desc
	laneBad, laneIgnored, pingsIgnored                        *prometheus.Desc
}

// Collector returns a Prometheus collector of the tanknet_ metrics, reading stats (usually a
// running server's Stats method) at every collection. Handler registers one; use Collector
// to add the metrics to a registry of your own.
func Collector(stats func() server.Stats) prometheus.Collector { return newCollector(stats) }

func newCollector(stats func() server.Stats) *collector {
	d := func(name, help string, labels ...string) *prometheus.Desc {
		return prometheus.NewDesc(prometheus.BuildFQName(namespace, "", name), help, labels, nil)
	}
	return &collector{
		stats:          stats,
		tickDuration:   d("tick_duration_seconds", "Wall time of one server tick on the world goroutine: admit inputs, simulate, resolve contact, encode tank states; with interest management, per-client snapshots are built after it on worker goroutines."),
		players:        d("players", "Players in the game."),
		handshaking:    d("handshakes_in_progress", "Connections that have not finished their Hello."),
		ticks:          d("ticks_total", "Server ticks run."),
		joins:          d("joins_total", "Handshakes accepted."),
		leaves:         d("leaves_total", "Players that left on their own (goodbye or closed connection)."),
		contacts:       d("contacts_total", "Tank pairs pushed apart by contact resolution."),
		badFrames:      d("bad_frames_total", "Undecodable or oversized frames and unknown message kinds received."),
		evicted:        d("handshakes_evicted_total", "Silent handshakes closed to make room for newer connections."),
		bytesIn:        d("received_bytes_total", "UDP payload bytes received by the server socket."),
		bytesOut:       d("sent_bytes_total", "UDP payload bytes sent by the server socket."),
		datagramsIn:    d("received_datagrams_total", "UDP datagrams received by the server socket."),
		datagramsOut:   d("sent_datagrams_total", "UDP datagrams sent by the server socket."),
		rejects:        d("rejects_total", "Handshakes refused, by reject code.", "code"),
		drops:          d("drops_total", "Players the server removed, by kind of reason.", "reason"),
		refused:        d("inputs_refused_total", "MoveInputs that broke a rule and got their client dropped, by rule.", "rule"),
		inputsApplied:  d("inputs_applied_total", "MoveInputs simulated."),
		inputsStale:    d("inputs_stale_total", "MoveInputs at or below a tick already queued, ignored."),
		inputsClamped:  d("inputs_clamped_total", "MoveInputs with turn or throttle outside [-1, 1], clamped."),
		inputsDeferred: d("inputs_deferred_total", "Times a player's next input waited a tick for its time budget."),
		states:         d("snapshot_states_total", "Tank entries sent in snapshots, one per tank per receiving client, by whether the tank moved that tick.", "motion"),
		stateBytes:     d("snapshot_state_bytes_total", "Bytes of the tank entries sent in snapshots, by whether the tank moved that tick.", "motion"),
		shots:          d("shots_total", "Fires accepted and judged."),
		hits:           d("shot_hits_total", "Accepted shots that hit a tank."),
		kills:          d("kills_total", "Tanks destroyed."),
		respawns:       d("respawns_total", "Destroyed tanks brought back."),
		firesDropped:   d("fires_dropped_total", "Fires beyond the per-tick and waiting limits, dropped unanswered."),
		shotsRefused:   d("shots_refused_total", "Fires refused, by reason (bad_view, future_view, view_too_old, unplayed_tick, stale_tick, cooldown, destroyed).", "reason"),
		// The datagram lane: how the redundant inputs arrived, and what was thrown away.
		inputsEarly:     d("inputs_early_total", "MoveInputs queued from an InputBatch datagram before their copy on the reliable stream arrived."),
		inputsRedundant: d("inputs_redundant_total", "Copies of a MoveInput already queued: datagram repeats and stream copies."),
		inputsPastGap:   d("inputs_past_gap_total", "Datagram MoveInputs left to the reliable stream because an earlier tick was still missing."),
		laneBad:         d("lane_datagrams_bad_total", "Unreliable-lane datagrams that were undecodable, oversized, of a wrong kind, or carried inputs breaking the rules."),
		laneIgnored:     d("lane_datagrams_ignored_total", "Well-formed unreliable-lane datagrams ignored: before the Welcome, on a server using the reliable lane, or beyond the rate allowed."),
		pingsIgnored:    d("pings_ignored_total", "Pings beyond the allowed rate, not answered."),
	}
}

// Describe sends every metric description.
func (c *collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{
		c.tickDuration, c.players, c.handshaking, c.ticks, c.joins, c.leaves, c.contacts, c.badFrames,
		c.evicted, c.bytesIn, c.bytesOut, c.datagramsIn, c.datagramsOut, c.rejects, c.drops, c.refused,
		c.inputsApplied, c.inputsStale, c.inputsClamped, c.inputsDeferred, c.states, c.stateBytes,
		c.shots, c.hits, c.kills, c.respawns, c.firesDropped, c.shotsRefused,
		c.inputsEarly, c.inputsRedundant, c.inputsPastGap, c.laneBad, c.laneIgnored, c.pingsIgnored,
	} {
		ch <- d
	}
}

// Collect reads the server's stats once and sends them as metrics.
func (c *collector) Collect(ch chan<- prometheus.Metric) {
	st := c.stats()
	ch <- tickHistogram(c.tickDuration, st.TickDuration)
	gauge := func(d *prometheus.Desc, v int) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, float64(v))
	}
	gauge(c.players, st.Players)
	gauge(c.handshaking, st.Handshaking)
	for _, m := range []struct {
		d *prometheus.Desc
		v uint64
	}{
		{c.ticks, st.Ticks}, {c.joins, st.Joins}, {c.leaves, st.Leaves}, {c.contacts, st.Contacts},
		{c.badFrames, st.BadFrames}, {c.evicted, st.Evicted},
		{c.bytesIn, st.BytesIn}, {c.bytesOut, st.BytesOut}, {c.datagramsIn, st.DatagramsIn}, {c.datagramsOut, st.DatagramsOut},
		{c.inputsApplied, st.InputsApplied}, {c.inputsStale, st.InputsStale},
		{c.inputsClamped, st.InputsClamped}, {c.inputsDeferred, st.InputsDeferred},
		{c.shots, st.Shots}, {c.hits, st.Hits}, {c.kills, st.Kills}, {c.respawns, st.Respawns}, {c.firesDropped, st.FiresDropped},
		{c.inputsEarly, st.InputsEarly}, {c.inputsRedundant, st.InputsRedundant}, {c.inputsPastGap, st.InputsPastGap},
		{c.laneBad, st.DatagramsBad}, {c.laneIgnored, st.DatagramsDropped}, {c.pingsIgnored, st.PingsIgnored},
	} {
		ch <- prometheus.MustNewConstMetric(m.d, prometheus.CounterValue, float64(m.v))
	}
	for _, m := range []struct {
		d            *prometheus.Desc
		moving, idle uint64
	}{{c.states, st.StatesMoving, st.StatesIdle}, {c.stateBytes, st.StateBytesMoving, st.StateBytesIdle}} {
		ch <- prometheus.MustNewConstMetric(m.d, prometheus.CounterValue, float64(m.moving), "moving")
		ch <- prometheus.MustNewConstMetric(m.d, prometheus.CounterValue, float64(m.idle), "idle")
	}
	for _, l := range []struct {
		d      *prometheus.Desc
		counts map[string]uint64
	}{{c.rejects, st.RejectsByCode}, {c.drops, st.DropsByReason}, {c.refused, st.InputsRefused}, {c.shotsRefused, st.ShotsRefused}} {
		for label, n := range l.counts {
			ch <- prometheus.MustNewConstMetric(l.d, prometheus.CounterValue, float64(n), label)
		}
	}
}

// tickHistogram converts the server's tick histogram (counts per bucket) into Prometheus's
// form (cumulative counts by upper bound in seconds).
func tickHistogram(d *prometheus.Desc, h server.TickHistogram) prometheus.Metric {
	buckets := make(map[float64]uint64, len(h.UpperBounds))
	var cum uint64
	for i, ub := range h.UpperBounds {
		cum += h.Counts[i]
		buckets[ub.Seconds()] = cum
	}
	return prometheus.MustNewConstHistogram(d, h.Count, h.Sum.Seconds(), buckets)
}
