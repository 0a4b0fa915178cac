package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"tanknet/server"
)

// roomDescs describe the per-room series: one room label per open room, so a series goes
// away when its room closes. Server.Config.MaxRooms bounds how many there are.
type roomDescs struct {
	open, players, tickDuration                          *prometheus.Desc
	playerTicks, starved, doubled, inputWait, inputDepth *prometheus.Desc
}

func newRoomDescs() roomDescs {
	room := []string{"room"}
	return roomDescs{
		open: prometheus.NewDesc(prometheus.BuildFQName(namespace, "", "rooms"),
			"Rooms (matches) open on this server, the default room included.", nil, nil),
		players: prometheus.NewDesc(prometheus.BuildFQName(namespace, "", "room_players"),
			"Players in each open room.", room, nil),
		tickDuration: prometheus.NewDesc(prometheus.BuildFQName(namespace, "", "room_tick_duration_seconds"),
			"Wall time of one tick of each open room, on that room's own goroutine.", room, nil),
		playerTicks: prometheus.NewDesc(prometheus.BuildFQName(namespace, "", "room_player_ticks_total"),
			"Player-ticks of each open room: one tick of one player that has had an input applied and has not left.", room, nil),
		starved: prometheus.NewDesc(prometheus.BuildFQName(namespace, "", "room_player_ticks_starved_total"),
			"Player-ticks that applied no input because none was waiting (the tank stood for lack of input).", room, nil),
		doubled: prometheus.NewDesc(prometheus.BuildFQName(namespace, "", "room_player_ticks_doubled_total"),
			"Player-ticks that applied more than one input (the tank moved two steps' worth or more in one tick).", room, nil),
		inputWait: prometheus.NewDesc(prometheus.BuildFQName(namespace, "", "room_input_wait_seconds"),
			"How long each applied input waited at the server, from its first copy's arrival to the tick that applied it.", room, nil),
		inputDepth: prometheus.NewDesc(prometheus.BuildFQName(namespace, "", "room_input_buffer_depth"),
			"Inputs still waiting in a player's buffer after each player-tick.", room, nil),
	}
}

func (r roomDescs) describe(ch chan<- *prometheus.Desc) {
	ch <- r.open
	ch <- r.players
	ch <- r.tickDuration
	ch <- r.playerTicks
	ch <- r.starved
	ch <- r.doubled
	ch <- r.inputWait
	ch <- r.inputDepth
}

func (r roomDescs) collect(ch chan<- prometheus.Metric, rooms []server.RoomStats) {
	ch <- prometheus.MustNewConstMetric(r.open, prometheus.GaugeValue, float64(len(rooms)))
	for _, rs := range rooms {
		ch <- prometheus.MustNewConstMetric(r.players, prometheus.GaugeValue, float64(rs.Players), rs.Name)
		ch <- tickHistogram(r.tickDuration, rs.TickDuration, rs.Name)
		ch <- prometheus.MustNewConstMetric(r.playerTicks, prometheus.CounterValue, float64(rs.Input.PlayerTicks), rs.Name)
		ch <- prometheus.MustNewConstMetric(r.starved, prometheus.CounterValue, float64(rs.Input.Starved), rs.Name)
		ch <- prometheus.MustNewConstMetric(r.doubled, prometheus.CounterValue, float64(rs.Input.Doubled), rs.Name)
		ch <- histogram(r.inputWait, rs.Input.Wait, rs.Name)
		ch <- histogram(r.inputDepth, rs.Input.Depth, rs.Name)
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
