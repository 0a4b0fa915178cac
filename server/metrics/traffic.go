package metrics

import "tanknet/server"

// motions are the values of the motion label: whether a tank moved in the tick.
var motions = []string{"moving", "idle"}

// trafficFamilies are the metrics of what the server's socket carried, and what the tank
// entries of the snapshots cost.
func trafficFamilies() []family {
	return []family{
		counter("received_bytes_total", "UDP payload bytes received by the server socket.",
			func(st *server.Stats) uint64 { return st.BytesIn }),
		counter("sent_bytes_total", "UDP payload bytes sent by the server socket.",
			func(st *server.Stats) uint64 { return st.BytesOut }),
		counter("received_datagrams_total", "UDP datagrams received by the server socket.",
			func(st *server.Stats) uint64 { return st.DatagramsIn }),
		counter("sent_datagrams_total", "UDP datagrams sent by the server socket.",
			func(st *server.Stats) uint64 { return st.DatagramsOut }),

		counterBy("snapshot_states_total", "Tank entries sent in snapshots, one per tank per receiving client, by whether the tank moved that tick.",
			"motion", motions,
			func(st *server.Stats) map[string]uint64 {
				return map[string]uint64{"moving": st.StatesMoving, "idle": st.StatesIdle}
			}),
		counterBy("snapshot_state_bytes_total", "Bytes of the tank entries sent in snapshots, by whether the tank moved that tick.",
			"motion", motions,
			func(st *server.Stats) map[string]uint64 {
				return map[string]uint64{"moving": st.StateBytesMoving, "idle": st.StateBytesIdle}
			}),
	}
}
