package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"tanknet/server"
)

// roomDescs describe the per-room series: one room label per open room, so a series goes
// away when its room closes. Server.Config.MaxRooms bounds how many there are. The metrics
// of a room's input buffer are server.InputBufferMetrics; the room count, players and tick
// durations are declared here.
type roomDescs struct {
	open, players, tickDuration *prometheus.Desc
	input                       []*prometheus.Desc // one per server.InputBufferMetrics entry
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
		input: descsOf(server.InputBufferMetrics, room...),
	}
}

func (r roomDescs) describe(ch chan<- *prometheus.Desc) {
	ch <- r.open
	ch <- r.players
	ch <- r.tickDuration
	for _, d := range r.input {
		ch <- d
	}
}

func (r roomDescs) collect(ch chan<- prometheus.Metric, rooms []server.RoomStats) {
	ch <- prometheus.MustNewConstMetric(r.open, prometheus.GaugeValue, float64(len(rooms)))
	for _, rs := range rooms {
		ch <- prometheus.MustNewConstMetric(r.players, prometheus.GaugeValue, float64(rs.Players), rs.Name)
		ch <- histogram(r.tickDuration, rs.TickDuration.Seconds(), rs.Name)
		collect(ch, server.InputBufferMetrics, r.input, &rs.Input, rs.Name)
	}
}
