package metrics

import "tanknet/server"

// inputFamilies are the metrics of the clients' MoveInputs: applied, ignored, refused, and
// how the datagram lane's redundant copies arrived.
func inputFamilies() []family {
	return []family{
		counter("inputs_applied_total", "MoveInputs simulated.",
			func(st *server.Stats) uint64 { return st.InputsApplied }),
		counter("inputs_stale_total", "MoveInputs at or below a tick already queued, ignored.",
			func(st *server.Stats) uint64 { return st.InputsStale }),
		counter("inputs_clamped_total", "MoveInputs with turn or throttle outside [-1, 1], clamped.",
			func(st *server.Stats) uint64 { return st.InputsClamped }),
		counter("inputs_deferred_total", "Times a player's next input waited a tick for its time budget.",
			func(st *server.Stats) uint64 { return st.InputsDeferred }),
		counterBy("inputs_refused_total", "MoveInputs that broke a rule and got their client dropped, by rule.",
			"rule", server.InputRuleLabels(),
			func(st *server.Stats) map[string]uint64 { return st.InputsRefused }),

		// The datagram lane (Config.Lane datagram).
		counter("inputs_early_total", "MoveInputs queued from an InputBatch datagram before their copy on the reliable stream arrived.",
			func(st *server.Stats) uint64 { return st.InputsEarly }),
		counter("inputs_redundant_total", "Copies of a MoveInput already queued: datagram repeats and stream copies.",
			func(st *server.Stats) uint64 { return st.InputsRedundant }),
		counter("inputs_past_gap_total", "Datagram MoveInputs left to the reliable stream because an earlier tick was still missing.",
			func(st *server.Stats) uint64 { return st.InputsPastGap }),
		counter("lane_datagrams_bad_total", "Unreliable-lane datagrams that were undecodable, oversized or of a wrong kind, and each MoveInput copy from one that broke rule 1, 2 or 4 of the input rules.",
			func(st *server.Stats) uint64 { return st.DatagramsBad }),
		counter("lane_datagrams_ignored_total", "Well-formed unreliable-lane datagrams ignored: before the Welcome, on a server using the reliable lane, or beyond the rate allowed.",
			func(st *server.Stats) uint64 { return st.DatagramsDropped }),
	}
}
