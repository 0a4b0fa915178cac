package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"tanknet/server"
)

// roomFamilies are the metrics of each open room, labelled with its name: a room's series
// go when it closes, and Server.Config.MaxRooms bounds how many there are.
func roomFamilies() []family {
	return []family{
		gauge("rooms", "Rooms (matches) open on this server, the default room included.",
			func(st *server.Stats) int { return len(st.Rooms) }),
		roomGauge("room_players", "Players in each open room.",
			func(r *server.RoomStats) int { return r.Players }),
		roomHistogram("room_tick_duration_seconds", "Wall time of the work of one tick of each open room, on that room's own goroutine.",
			func(r *server.RoomStats) server.Histogram { return r.TickDuration.Seconds() }),
		roomHistogram("room_tick_cpu_seconds", "Thread CPU time of each open room's ticks that stayed on one OS thread (Linux only).",
			func(r *server.RoomStats) server.Histogram { return r.TickCPU.Seconds() }),

		// The room's input buffer (server.InputBufferStats).
		roomCounter("room_player_ticks_total", "Player-ticks of each open room: one tick of one player that has had an input applied and has not left.",
			func(r *server.RoomStats) uint64 { return r.Input.PlayerTicks }),
		roomCounter("room_player_ticks_starved_total", "Player-ticks that applied no input because none was waiting (the tank stood for lack of input).",
			func(r *server.RoomStats) uint64 { return r.Input.Starved }),
		roomCounter("room_player_ticks_doubled_total", "Player-ticks that applied more than one input (the tank moved two steps' worth or more in one tick).",
			func(r *server.RoomStats) uint64 { return r.Input.Doubled }),
		roomHistogram("room_input_wait_seconds", "How long each applied input waited at the server, from its first copy's arrival to the tick that applied it.",
			func(r *server.RoomStats) server.Histogram { return r.Input.Wait }),
		roomHistogram("room_input_buffer_depth", "Inputs still waiting in a player's buffer after each player-tick.",
			func(r *server.RoomStats) server.Histogram { return r.Input.Depth }),
	}
}

// roomLabel is the label naming a room.
var roomLabel = []string{"room"}

// roomCounter is a running total of each open room, read from one field of its stats.
func roomCounter(name, help string, read func(*server.RoomStats) uint64) family {
	return newFamily(name, help, prometheus.CounterValue, roomLabel, func(out series, st *server.Stats) {
		for i, r := range st.Rooms {
			out.value(float64(read(&st.Rooms[i])), r.Name)
		}
	})
}

// roomGauge is a level of each open room, read from one field of its stats.
func roomGauge(name, help string, read func(*server.RoomStats) int) family {
	return newFamily(name, help, prometheus.GaugeValue, roomLabel, func(out series, st *server.Stats) {
		for i, r := range st.Rooms {
			out.value(float64(read(&st.Rooms[i])), r.Name)
		}
	})
}

// roomHistogram is a distribution of each open room, read from one field of its stats.
func roomHistogram(name, help string, read func(*server.RoomStats) server.Histogram) family {
	return newFamily(name, help, prometheus.UntypedValue, roomLabel, func(out series, st *server.Stats) {
		for i, r := range st.Rooms {
			out.histogram(read(&st.Rooms[i]), r.Name)
		}
	})
}
