package server

import (
	"slices"
	"sync/atomic"

	tankv1 "tanknet/proto/tank/v1"
	"tanknet/wire"
)

// Namespace prefixes the name of every metric the server exports.
const Namespace = "tanknet"

// Metric is one of the server's counts as it is exported, declared once here: its name,
// what it means, the label that splits it and every value that label takes. The Prometheus
// collector (server/metrics) and tanksim read Stats through this table, and a labelled
// count is exported at zero for every value before the first event. The tick histogram and
// the gate's counts (Stats.Gate) have collectors of their own.
type Metric struct {
	Name   string   // without the Namespace prefix
	Help   string   // one sentence for /metrics
	Gauge  bool     // a level that goes up and down; otherwise a running total
	Label  string   // the label splitting the count; "" for one series
	Values []string // every value of Label

	// How to read it from Stats, and for the counts the world and sessions keep, where the
	// live count is: snapshot copies live into stat, tally into labels, so a count declared
	// here cannot be left out of Stats.
	stat   func(*Stats) *uint64            // an unlabelled count's field
	value  func(*Stats) uint64             // or its value, when it is no uint64 field
	labels func(*Stats) *map[string]uint64 // a labelled count's field
	split  func(*Stats) map[string]uint64  // or its values, when they are several fields
	live   func(*counters) *atomic.Uint64
	tally  func(*counters) *tally
}

// fill copies the live count of m, if the counters keep one, into st.
func (m *Metric) fill(st *Stats, c *counters) {
	switch {
	case m.live != nil:
		*m.stat(st) = m.live(c).Load()
	case m.tally != nil:
		*m.labels(st) = m.tally(c).snapshot()
	}
}

// Series returns the metric's value in st by label value ("" for an unlabelled metric):
// every declared value, counted or not, plus any other value st holds.
func (m *Metric) Series(st *Stats) map[string]uint64 {
	switch {
	case m.stat != nil:
		return map[string]uint64{"": *m.stat(st)}
	case m.value != nil:
		return map[string]uint64{"": m.value(st)}
	}
	split := m.split
	if split == nil {
		split = func(st *Stats) map[string]uint64 { return *m.labels(st) }
	}
	out := map[string]uint64{}
	for _, v := range m.Values {
		out[v] = 0
	}
	for v, n := range split(st) {
		out[v] += n
	}
	return out
}

// SeriesName is how the Prometheus text format names the metric's series with label
// value v (v is ignored for an unlabelled metric), e.g. tanknet_drops_total{reason="timeout"}.
func (m *Metric) SeriesName(v string) string {
	name := Namespace + "_" + m.Name
	if m.Label == "" {
		return name
	}
	return name + "{" + m.Label + `="` + v + `"}`
}

// The metrics tanksim reads by name.
var (
	MetricStates = &Metric{Name: "snapshot_states_total", Help: "Tank entries sent in snapshots, one per tank per receiving client, by whether the tank moved that tick.", Label: "motion", Values: motions, split: func(s *Stats) map[string]uint64 {
		return map[string]uint64{"moving": s.StatesMoving, "idle": s.StatesIdle}
	}}
	MetricStateBytes = &Metric{Name: "snapshot_state_bytes_total", Help: "Bytes of the tank entries sent in snapshots, by whether the tank moved that tick.", Label: "motion", Values: motions, split: func(s *Stats) map[string]uint64 {
		return map[string]uint64{"moving": s.StateBytesMoving, "idle": s.StateBytesIdle}
	}}
)

var motions = []string{"moving", "idle"}

// Metrics lists every metric read from Stats, in the order /metrics shows them.
var Metrics = []*Metric{
	{Name: "players", Help: "Players in the game.", Gauge: true, value: func(s *Stats) uint64 { return uint64(s.Players) }},
	{Name: "handshakes_in_progress", Help: "Connections that have not finished their Hello.", Gauge: true, value: func(s *Stats) uint64 { return uint64(s.Handshaking) }},
	{Name: "ticks_total", Help: "Server ticks run, in every room.", stat: func(s *Stats) *uint64 { return &s.Ticks }, live: func(c *counters) *atomic.Uint64 { return &c.ticks }},
	{Name: "joins_total", Help: "Handshakes accepted.", stat: func(s *Stats) *uint64 { return &s.Joins }, live: func(c *counters) *atomic.Uint64 { return &c.joins }},
	{Name: "leaves_total", Help: "Players that left on their own (goodbye or closed connection).", stat: func(s *Stats) *uint64 { return &s.Leaves }, live: func(c *counters) *atomic.Uint64 { return &c.leaves }},
	{Name: "contacts_total", Help: "Tank pairs pushed apart by contact resolution.", stat: func(s *Stats) *uint64 { return &s.Contacts }, live: func(c *counters) *atomic.Uint64 { return &c.contacts }},
	{Name: "bad_frames_total", Help: "Undecodable or oversized frames and unknown message kinds received.", stat: func(s *Stats) *uint64 { return &s.BadFrames }, live: func(c *counters) *atomic.Uint64 { return &c.badFrames }},
	{Name: "handshakes_evicted_total", Help: "Silent handshakes closed to make room for newer connections.", stat: func(s *Stats) *uint64 { return &s.Evicted }, live: func(c *counters) *atomic.Uint64 { return &c.evicted }},
	{Name: "received_bytes_total", Help: "UDP payload bytes received by the server socket.", stat: func(s *Stats) *uint64 { return &s.BytesIn }},
	{Name: "sent_bytes_total", Help: "UDP payload bytes sent by the server socket.", stat: func(s *Stats) *uint64 { return &s.BytesOut }},
	{Name: "received_datagrams_total", Help: "UDP datagrams received by the server socket.", stat: func(s *Stats) *uint64 { return &s.DatagramsIn }},
	{Name: "sent_datagrams_total", Help: "UDP datagrams sent by the server socket.", stat: func(s *Stats) *uint64 { return &s.DatagramsOut }},
	{Name: "rejects_total", Help: "Handshakes refused, by reject code.", Label: "code", Values: rejectLabels(), labels: func(s *Stats) *map[string]uint64 { return &s.RejectsByCode }, tally: func(c *counters) *tally { return &c.rejectsByCode }},
	{Name: "drops_total", Help: "Players the server removed, by kind of reason.", Label: "reason", Values: dropLabels(), labels: func(s *Stats) *map[string]uint64 { return &s.DropsByReason }, tally: func(c *counters) *tally { return &c.dropsByReason }},
	{Name: "inputs_refused_total", Help: "MoveInputs that broke a rule and got their client dropped, by rule.", Label: "rule", Values: inputRules, labels: func(s *Stats) *map[string]uint64 { return &s.InputsRefused }, tally: func(c *counters) *tally { return &c.inputsRefused }},
	{Name: "inputs_applied_total", Help: "MoveInputs simulated.", stat: func(s *Stats) *uint64 { return &s.InputsApplied }, live: func(c *counters) *atomic.Uint64 { return &c.applied }},
	{Name: "inputs_stale_total", Help: "MoveInputs at or below a tick already queued, ignored.", stat: func(s *Stats) *uint64 { return &s.InputsStale }, live: func(c *counters) *atomic.Uint64 { return &c.staleInputs }},
	{Name: "inputs_clamped_total", Help: "MoveInputs with turn or throttle outside [-1, 1], clamped.", stat: func(s *Stats) *uint64 { return &s.InputsClamped }, live: func(c *counters) *atomic.Uint64 { return &c.clamped }},
	{Name: "inputs_deferred_total", Help: "Times a player's next input waited a tick for its time budget.", stat: func(s *Stats) *uint64 { return &s.InputsDeferred }, live: func(c *counters) *atomic.Uint64 { return &c.deferred }},
	MetricStates,
	MetricStateBytes,
	{Name: "shots_total", Help: "Fires accepted and judged.", stat: func(s *Stats) *uint64 { return &s.Shots }, live: func(c *counters) *atomic.Uint64 { return &c.shots }},
	{Name: "shot_hits_total", Help: "Accepted shots that hit a tank.", stat: func(s *Stats) *uint64 { return &s.Hits }, live: func(c *counters) *atomic.Uint64 { return &c.hits }},
	{Name: "kills_total", Help: "Tanks destroyed.", stat: func(s *Stats) *uint64 { return &s.Kills }, live: func(c *counters) *atomic.Uint64 { return &c.kills }},
	{Name: "respawns_total", Help: "Destroyed tanks brought back.", stat: func(s *Stats) *uint64 { return &s.Respawns }, live: func(c *counters) *atomic.Uint64 { return &c.respawns }},
	{Name: "fires_dropped_total", Help: "Fires beyond the per-tick and waiting limits, dropped unanswered.", stat: func(s *Stats) *uint64 { return &s.FiresDropped }, live: func(c *counters) *atomic.Uint64 { return &c.firesDropped }},
	{Name: "shots_refused_total", Help: "Fires refused, by reason (the ShotRefusal without its prefix).", Label: "reason", Values: refusalLabels(), labels: func(s *Stats) *map[string]uint64 { return &s.ShotsRefused }, tally: func(c *counters) *tally { return &c.shotsRefused }},
	// The datagram lane: how the redundant inputs arrived, and what was thrown away.
	{Name: "inputs_early_total", Help: "MoveInputs queued from an InputBatch datagram before their copy on the reliable stream arrived.", stat: func(s *Stats) *uint64 { return &s.InputsEarly }, live: func(c *counters) *atomic.Uint64 { return &c.earlyInputs }},
	{Name: "inputs_redundant_total", Help: "Copies of a MoveInput already queued: datagram repeats and stream copies.", stat: func(s *Stats) *uint64 { return &s.InputsRedundant }, live: func(c *counters) *atomic.Uint64 { return &c.redundantInputs }},
	{Name: "inputs_past_gap_total", Help: "Datagram MoveInputs left to the reliable stream because an earlier tick was still missing.", stat: func(s *Stats) *uint64 { return &s.InputsPastGap }, live: func(c *counters) *atomic.Uint64 { return &c.gapInputs }},
	{Name: "lane_datagrams_bad_total", Help: "Unreliable-lane datagrams that were undecodable, oversized, of a wrong kind, or carried inputs breaking the rules.", stat: func(s *Stats) *uint64 { return &s.DatagramsBad }, live: func(c *counters) *atomic.Uint64 { return &c.badDatagrams }},
	{Name: "lane_datagrams_ignored_total", Help: "Well-formed unreliable-lane datagrams ignored: before the Welcome, on a server using the reliable lane, or beyond the rate allowed.", stat: func(s *Stats) *uint64 { return &s.DatagramsDropped }, live: func(c *counters) *atomic.Uint64 { return &c.droppedDatagrams }},
	{Name: "pings_ignored_total", Help: "Pings beyond the allowed rate, not answered.", stat: func(s *Stats) *uint64 { return &s.PingsIgnored }, live: func(c *counters) *atomic.Uint64 { return &c.pingsIgnored }},
}

// rejectLabels returns the label of every reject code a server sends.
func rejectLabels() []string {
	var out []string
	for n := range tankv1.RejectCode_name {
		if c := tankv1.RejectCode(n); c != tankv1.RejectCode_REJECT_CODE_UNSPECIFIED {
			out = append(out, rejectLabel(c))
		}
	}
	return sorted(out)
}

// refusalLabels returns the label of every reason a Fire is refused for.
func refusalLabels() []string {
	var out []string
	for n := range tankv1.ShotRefusal_name {
		if r := tankv1.ShotRefusal(n); r != tankv1.ShotRefusal_SHOT_REFUSAL_UNSPECIFIED {
			out = append(out, wire.RefusalFromProto(r).Label())
		}
	}
	return sorted(out)
}

func sorted(s []string) []string {
	slices.Sort(s)
	return s
}
