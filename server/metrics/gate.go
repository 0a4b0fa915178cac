package metrics

import "tanknet/server"

// gateDropHelp describes the datagrams address validation dropped.
const gateDropHelp = "Datagrams dropped by address validation, by reason: unvalidated (address not admitted), " +
	"wrong_conv (admitted address, other conversation), bad_cookie, malformed, throttled (budget spent), full (too many admitted)."

// gateFamilies are the metrics of address validation (server.Stats.Gate): what the connect
// handshake admitted, and what it dropped before any session existed.
func gateFamilies() []family {
	return []family{
		gauge("gate_admissions", "Addresses admitted right now (they passed the connect handshake).",
			func(st *server.Stats) int { return st.Gate.Admissions }),
		counter("gate_challenges_total", "Challenges (cookies) sent.",
			func(st *server.Stats) uint64 { return st.Gate.Challenges }),
		counter("gate_admitted_total", "Addresses admitted by a valid cookie.",
			func(st *server.Stats) uint64 { return st.Gate.Admitted }),
		counter("gate_replaced_total", "Admitted addresses that started a new conversation after a fresh cookie.",
			func(st *server.Stats) uint64 { return st.Gate.Replaced }),
		counterBy("gate_dropped_total", gateDropHelp, "reason",
			[]string{"bad_cookie", "full", "malformed", "throttled", "unvalidated", "wrong_conv"},
			func(st *server.Stats) map[string]uint64 {
				g := st.Gate
				return map[string]uint64{"unvalidated": g.Unvalidated, "wrong_conv": g.WrongConv, "bad_cookie": g.BadCookies,
					"malformed": g.Malformed, "throttled": g.Throttled, "full": g.Full}
			}),
		counterBy("gate_unvalidated_bytes_total", "Bytes received from and sent to addresses not admitted (sent stays within 3x received).",
			"direction", []string{"in", "out"},
			func(st *server.Stats) map[string]uint64 {
				return map[string]uint64{"in": st.Gate.BytesIn, "out": st.Gate.BytesOut}
			}),
	}
}
