package metrics

import "tanknet/server"

// playerFamilies are the metrics of players coming and going: handshakes accepted and
// refused, players dropped, and the connections that broke the rules before playing.
func playerFamilies() []family {
	return []family{
		gauge("players", "Players in the game.",
			func(st *server.Stats) int { return st.Players }),
		gauge("handshakes_in_progress", "Connections that have not finished their Hello.",
			func(st *server.Stats) int { return st.Handshaking }),
		counter("joins_total", "Handshakes accepted.",
			func(st *server.Stats) uint64 { return st.Joins }),
		counter("leaves_total", "Players that left on their own (goodbye or closed connection).",
			func(st *server.Stats) uint64 { return st.Leaves }),
		counterBy("rejects_total", "Handshakes refused, by reject code.", "code", server.RejectLabels(),
			func(st *server.Stats) map[string]uint64 { return st.RejectsByCode }),
		counterBy("drops_total", "Players the server removed, by kind of reason.", "reason", server.DropLabels(),
			func(st *server.Stats) map[string]uint64 { return st.DropsByReason }),
		counter("bad_frames_total", "Stream frames that carry no message the stream takes: undecodable, oversized, of an unknown kind or empty, or an InputBatch (a datagram).",
			func(st *server.Stats) uint64 { return st.BadFrames }),
		counter("handshakes_evicted_total", "Silent handshakes closed to make room for newer connections.",
			func(st *server.Stats) uint64 { return st.Evicted }),
		counter("pings_ignored_total", "Pings beyond the allowed rate, not answered.",
			func(st *server.Stats) uint64 { return st.PingsIgnored }),
		counter("aways_total", "Players that said they are away (an Away message: a hidden or frozen page), once until their next input.",
			func(st *server.Stats) uint64 { return st.Aways }),
		counter("away_ticks_total", "Ticks an away player's tank stood still with nothing to apply; not counted as starved.",
			func(st *server.Stats) uint64 { return st.AwayTicks }),
	}
}
