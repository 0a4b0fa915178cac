package metrics

import "tanknet/server"

// tickDurationHelp describes the tick duration histogram of every room's ticks together.
const tickDurationHelp = "Wall time of one server tick's own work on its room's world goroutine, every room's ticks together: " +
	"admit inputs, simulate, resolve contact, encode tank states; " +
	"with interest management, per-client snapshots are built after it on worker goroutines."

// playFamilies are the metrics of the game itself, in every room together: ticks, contact
// between tanks, and combat.
func playFamilies() []family {
	return []family{
		counter("ticks_total", "Server ticks run, in every room.",
			func(st *server.Stats) uint64 { return st.Ticks }),
		histogram("tick_duration_seconds", tickDurationHelp,
			func(st *server.Stats) server.Histogram { return st.TickDuration.Seconds() }),
		histogram("tick_cpu_seconds", "Thread CPU time of the same work as tanknet_tick_duration_seconds, for the ticks that stayed on one OS thread (Linux only); "+
			"wall time above it is waiting for a core, a lock or the scheduler.",
			func(st *server.Stats) server.Histogram { return st.TickCPU.Seconds() }),
		histogram("tick_handoff_seconds", "Wall time after each tick's work on its room's goroutine: waking the session writers and yielding until they took its snapshots.",
			func(st *server.Stats) server.Histogram { return st.TickHandoff.Seconds() }),
		counter("contacts_total", "Tank pairs pushed apart by contact resolution.",
			func(st *server.Stats) uint64 { return st.Contacts }),
		counter("pushes_total", "Contact pushes of clients' MoveInputs applied (contact predicted).",
			func(st *server.Stats) uint64 { return st.Pushes }),
		counterBy("pushes_refused_total", "Contact pushes of MoveInputs applied as zero because the rules did not allow them, by reason.",
			"reason", server.PushRefusalLabels(),
			func(st *server.Stats) map[string]uint64 { return st.PushesRefused }),

		counter("shots_total", "Fires accepted and judged.",
			func(st *server.Stats) uint64 { return st.Shots }),
		counter("shot_hits_total", "Accepted shots that hit a tank.",
			func(st *server.Stats) uint64 { return st.Hits }),
		counter("kills_total", "Tanks destroyed.",
			func(st *server.Stats) uint64 { return st.Kills }),
		counter("respawns_total", "Destroyed tanks brought back.",
			func(st *server.Stats) uint64 { return st.Respawns }),
		counter("fires_dropped_total", "Fires beyond the per-tick and waiting limits, dropped unanswered.",
			func(st *server.Stats) uint64 { return st.FiresDropped }),
		counterBy("shots_refused_total", "Fires refused, by reason (the ShotRefusal without its prefix).",
			"reason", server.ShotRefusalLabels(),
			func(st *server.Stats) map[string]uint64 { return st.ShotsRefused }),
	}
}
