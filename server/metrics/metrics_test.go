package metrics_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"tanknet/client"
	"tanknet/internal/servertest"
	"tanknet/server"
	"tanknet/server/metrics"
)

// get fetches url and returns its body, failing the test on any error or non-200 status.
func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v", url, resp.StatusCode, err)
	}
	return string(body)
}

// TestScrape_LiveServer runs a server with one player and scrapes its endpoint like
// Prometheus would: the player, the ticks, the traffic and the process are all there, and
// the profiler answers beside them.
func TestScrape_LiveServer(t *testing.T) {
	srv := servertest.Start(t, nil)
	ln, err := metrics.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- metrics.Serve(ctx, ln, srv.Stats, nil) }()

	dctx, dcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer dcancel()
	sess, err := client.Dial(dctx, srv.Addr, "scraped", nil, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close("test over")
	for deadline := time.Now().Add(10 * time.Second); srv.Stats().TickDuration.Count < 2; {
		if time.Now().After(deadline) {
			t.Fatal("server ran no tick within 10s")
		}
		time.Sleep(10 * time.Millisecond)
	}

	base := "http://" + ln.Addr().String()
	body := get(t, base+"/metrics")
	for _, want := range []string{
		"tanknet_players 1\n",
		"tanknet_joins_total 1\n",
		"tanknet_tick_duration_seconds_bucket{le=\"0.002\"}",
		"tanknet_tick_duration_seconds_count ",
		"tanknet_sent_bytes_total ",
		"tanknet_received_datagrams_total ",
		"process_cpu_seconds_total ",
		"go_goroutines ",
		"tanknet_gate_admitted_total 1\n", // the one client passed the connect handshake
		"tanknet_gate_admissions 1\n",
		"tanknet_gate_dropped_total{reason=\"wrong_conv\"} 0\n",
		"tanknet_gate_unvalidated_bytes_total{direction=\"out\"} ",
		// Labelled counts are there at zero before anything was counted.
		"tanknet_drops_total{reason=\"timeout\"} 0\n",
		"tanknet_shots_refused_total{reason=\"cooldown\"} 0\n",
		"tanknet_rejects_total{code=\"server_full\"} 0\n",
		"tanknet_inputs_refused_total{rule=\"too_far_ahead\"} 0\n",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	if strings.Contains(body, "tanknet_sent_bytes_total 0\n") || strings.Contains(body, "tanknet_received_datagrams_total 0\n") {
		t.Error("/metrics counts no traffic although a player joined")
	}
	if pp := get(t, base+"/debug/pprof/"); !strings.Contains(pp, "goroutine") {
		t.Error("/debug/pprof/ does not list the goroutine profile")
	}

	cancel()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve after cancel = %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not stop within 10s of cancellation")
	}
}

// TestCollector_ExactValues checks the metric text for fixed stats: counters, gauges,
// labelled counts (every label value, zero until counted), and the tick histogram made
// cumulative in seconds.
func TestCollector_ExactValues(t *testing.T) {
	st := server.Stats{
		Players: 3, Ticks: 40, Joins: 4, Leaves: 1,
		RejectsByCode: map[string]uint64{"server_full": 2},
		DropsByReason: map[string]uint64{"timeout": 1},
		InputsRefused: map[string]uint64{"not_finite": 5},
		BytesOut:      1234,
		Shots:         9, Kills: 2,
		ShotsRefused: map[string]uint64{"cooldown": 3},
		InputsEarly:  11, InputsRedundant: 30, InputsPastGap: 4, DatagramsBad: 6, DatagramsDropped: 7,
		PingsIgnored: 8,
		StatesMoving: 12, StatesIdle: 5, StateBytesMoving: 240, StateBytesIdle: 15,
		TickDuration: server.TickHistogram{
			UpperBounds: []time.Duration{time.Millisecond, 2 * time.Millisecond},
			Counts:      []uint64{30, 9}, Count: 40, Sum: 50 * time.Millisecond,
		},
	}
	if err := testutil.CollectAndCompare(metrics.Collector(func() server.Stats { return st }), strings.NewReader(exactValues),
		"tanknet_players", "tanknet_rejects_total", "tanknet_drops_total", "tanknet_inputs_refused_total",
		"tanknet_sent_bytes_total", "tanknet_tick_duration_seconds", "tanknet_shots_total", "tanknet_kills_total",
		"tanknet_shots_refused_total", "tanknet_inputs_early_total", "tanknet_inputs_redundant_total",
		"tanknet_inputs_past_gap_total", "tanknet_pings_ignored_total",
		"tanknet_lane_datagrams_bad_total", "tanknet_lane_datagrams_ignored_total",
		"tanknet_snapshot_states_total", "tanknet_snapshot_state_bytes_total"); err != nil {
		t.Error(err)
	}
}

// exactValues is the text TestCollector_ExactValues wants for its stats.
const exactValues = `
# HELP tanknet_players Players in the game.
# TYPE tanknet_players gauge
tanknet_players 3
# HELP tanknet_rejects_total Handshakes refused, by reject code.
# TYPE tanknet_rejects_total counter
tanknet_rejects_total{code="bad_hello"} 0
tanknet_rejects_total{code="busy"} 0
tanknet_rejects_total{code="no_room"} 0
tanknet_rejects_total{code="server_full"} 2
tanknet_rejects_total{code="shutting_down"} 0
tanknet_rejects_total{code="version_mismatch"} 0
# HELP tanknet_drops_total Players the server removed, by kind of reason.
# TYPE tanknet_drops_total counter
tanknet_drops_total{reason="cannot_keep_up"} 0
tanknet_drops_total{reason="not_acknowledging"} 0
tanknet_drops_total{reason="other"} 0
tanknet_drops_total{reason="protocol_error"} 0
tanknet_drops_total{reason="timeout"} 1
# HELP tanknet_inputs_refused_total MoveInputs that broke a rule and got their client dropped, by rule.
# TYPE tanknet_inputs_refused_total counter
tanknet_inputs_refused_total{rule="duration"} 0
tanknet_inputs_refused_total{rule="inbox_full"} 0
tanknet_inputs_refused_total{rule="not_finite"} 5
tanknet_inputs_refused_total{rule="too_far_ahead"} 0
# HELP tanknet_sent_bytes_total UDP payload bytes sent by the server socket.
# TYPE tanknet_sent_bytes_total counter
tanknet_sent_bytes_total 1234
# HELP tanknet_shots_total Fires accepted and judged.
# TYPE tanknet_shots_total counter
tanknet_shots_total 9
# HELP tanknet_kills_total Tanks destroyed.
# TYPE tanknet_kills_total counter
tanknet_kills_total 2
# HELP tanknet_shots_refused_total Fires refused, by reason (the ShotRefusal without its prefix).
# TYPE tanknet_shots_refused_total counter
tanknet_shots_refused_total{reason="bad_view"} 0
tanknet_shots_refused_total{reason="cooldown"} 3
tanknet_shots_refused_total{reason="destroyed"} 0
tanknet_shots_refused_total{reason="future_view"} 0
tanknet_shots_refused_total{reason="stale_tick"} 0
tanknet_shots_refused_total{reason="unplayed_tick"} 0
tanknet_shots_refused_total{reason="view_too_old"} 0
# HELP tanknet_inputs_early_total MoveInputs queued from an InputBatch datagram before their copy on the reliable stream arrived.
# TYPE tanknet_inputs_early_total counter
tanknet_inputs_early_total 11
# HELP tanknet_inputs_redundant_total Copies of a MoveInput already queued: datagram repeats and stream copies.
# TYPE tanknet_inputs_redundant_total counter
tanknet_inputs_redundant_total 30
# HELP tanknet_inputs_past_gap_total Datagram MoveInputs left to the reliable stream because an earlier tick was still missing.
# TYPE tanknet_inputs_past_gap_total counter
tanknet_inputs_past_gap_total 4
# HELP tanknet_pings_ignored_total Pings beyond the allowed rate, not answered.
# TYPE tanknet_pings_ignored_total counter
tanknet_pings_ignored_total 8
# HELP tanknet_lane_datagrams_bad_total Unreliable-lane datagrams that were undecodable, oversized or of a wrong kind, and each MoveInput copy from one that broke rule 1, 2 or 4 of the input rules.
# TYPE tanknet_lane_datagrams_bad_total counter
tanknet_lane_datagrams_bad_total 6
# HELP tanknet_lane_datagrams_ignored_total Well-formed unreliable-lane datagrams ignored: before the Welcome, on a server using the reliable lane, or beyond the rate allowed.
# TYPE tanknet_lane_datagrams_ignored_total counter
tanknet_lane_datagrams_ignored_total 7
# HELP tanknet_snapshot_states_total Tank entries sent in snapshots, one per tank per receiving client, by whether the tank moved that tick.
# TYPE tanknet_snapshot_states_total counter
tanknet_snapshot_states_total{motion="idle"} 5
tanknet_snapshot_states_total{motion="moving"} 12
# HELP tanknet_snapshot_state_bytes_total Bytes of the tank entries sent in snapshots, by whether the tank moved that tick.
# TYPE tanknet_snapshot_state_bytes_total counter
tanknet_snapshot_state_bytes_total{motion="idle"} 15
tanknet_snapshot_state_bytes_total{motion="moving"} 240
# HELP tanknet_tick_duration_seconds Wall time of one server tick's own work on its room's world goroutine, every room's ticks together: admit inputs, simulate, resolve contact, encode tank states; with interest management, per-client snapshots are built after it on worker goroutines.
# TYPE tanknet_tick_duration_seconds histogram
tanknet_tick_duration_seconds_bucket{le="0.001"} 30
tanknet_tick_duration_seconds_bucket{le="0.002"} 39
tanknet_tick_duration_seconds_bucket{le="+Inf"} 40
tanknet_tick_duration_seconds_sum 0.05
tanknet_tick_duration_seconds_count 40
`

// exported is one series a collection sent: its metric's name, its labels, and its value
// (a histogram's count of observations).
type exported struct {
	name   string
	labels map[string]string
	value  float64
}

// gather collects the series of Collector reading st, failing the test on any error.
func gather(t *testing.T, st server.Stats) []exported {
	t.Helper()
	reg := prometheus.NewRegistry()
	if err := reg.Register(metrics.Collector(func() server.Stats { return st })); err != nil {
		t.Fatal(err)
	}
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var out []exported
	for _, f := range families {
		for _, m := range f.GetMetric() {
			e := exported{name: f.GetName(), labels: map[string]string{},
				value: m.GetCounter().GetValue() + m.GetGauge().GetValue() + float64(m.GetHistogram().GetSampleCount())}
			for _, l := range m.GetLabel() {
				e.labels[l.GetName()] = l.GetValue()
			}
			out = append(out, e)
		}
	}
	return out
}

// TestProtocolDoc_ListsEveryMetric: docs/PROTOCOL.md §11 has a row for every metric the
// collector exports, naming every value of its label (a room's name aside), so the
// document cannot fall behind the code.
func TestProtocolDoc_ListsEveryMetric(t *testing.T) {
	doc, err := os.ReadFile("../../docs/PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "## 11. What the server counts")
	if !ok {
		t.Fatal("docs/PROTOCOL.md has no section 11 listing the metrics")
	}
	for _, e := range gather(t, server.Stats{Rooms: []server.RoomStats{{Name: "default"}}}) {
		i := strings.Index(section, "| `"+e.name+"` |")
		if i < 0 {
			t.Errorf("docs/PROTOCOL.md §11 lacks %s", e.name)
			continue
		}
		line, _, _ := strings.Cut(section[i:], "\n")
		for name, value := range e.labels {
			if name != "room" && !strings.Contains(line, "`"+value+"`") {
				t.Errorf("docs/PROTOCOL.md §11: %s lacks its label value %q", e.name, value)
			}
		}
	}
}

// TestCollector_EmptyStatsExportZeros: before anything is counted every series is there at
// zero, every value of every label included (TestMetrics_EveryFamilyExported, in
// cmd/tankserver, lists them), the one room open aside.
func TestCollector_EmptyStatsExportZeros(t *testing.T) {
	series := gather(t, server.Stats{Rooms: []server.RoomStats{{Name: "default"}}})
	for _, e := range series {
		if e.value != 0 && e.name != "tanknet_rooms" {
			t.Errorf("%s %v = %v, want 0", e.name, e.labels, e.value)
		}
	}
	if !slices.ContainsFunc(series, func(e exported) bool {
		return e.name == "tanknet_drops_total" && e.labels["reason"] == "not_acknowledging"
	}) {
		t.Error("tanknet_drops_total has no series for a reason not yet counted")
	}
}

// TestDrainEndpoint: POST /drain calls the drain, other methods get 405 and call nothing,
// and a handler without a drain has no such endpoint.
func TestDrainEndpoint(t *testing.T) {
	calls := 0
	h, err := metrics.Handler(func() server.Stats { return server.Stats{} }, func() { calls++ })
	if err != nil {
		t.Fatal(err)
	}
	do := func(h http.Handler, method string) int {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(method, "/drain", nil))
		return rec.Code
	}
	if code := do(h, http.MethodGet); code != http.StatusMethodNotAllowed || calls != 0 {
		t.Errorf("GET /drain: %d, %d drains; want 405 and none", code, calls)
	}
	if code := do(h, http.MethodPost); code != http.StatusAccepted || calls != 1 {
		t.Errorf("POST /drain: %d, %d drains; want 202 and one", code, calls)
	}
	undrained, err := metrics.Handler(func() server.Stats { return server.Stats{} }, nil)
	if err != nil {
		t.Fatal(err)
	}
	if code := do(undrained, http.MethodPost); code != http.StatusNotFound {
		t.Errorf("POST /drain without a drain: %d, want 404", code)
	}
}

// TestCollector_Rooms: every open room has its players and tick histogram under its own
// room label, beside the number of rooms open; a closed room has no series.
func TestCollector_Rooms(t *testing.T) {
	h := func(n uint64) server.TickHistogram {
		return server.TickHistogram{UpperBounds: []time.Duration{time.Millisecond}, Counts: []uint64{n}, Count: n, Sum: time.Duration(n) * 500 * time.Microsecond}
	}
	st := server.Stats{Rooms: []server.RoomStats{{Name: "default", Players: 3, Ticks: 10, TickDuration: h(10)}, {Name: "blue", Players: 0, Ticks: 4, TickDuration: h(4)}}}
	want := `
# HELP tanknet_rooms Rooms (matches) open on this server, the default room included.
# TYPE tanknet_rooms gauge
tanknet_rooms 2
# HELP tanknet_room_players Players in each open room.
# TYPE tanknet_room_players gauge
tanknet_room_players{room="blue"} 0
tanknet_room_players{room="default"} 3
# HELP tanknet_room_tick_duration_seconds Wall time of the work of one tick of each open room, on that room's own goroutine.
# TYPE tanknet_room_tick_duration_seconds histogram
tanknet_room_tick_duration_seconds_bucket{room="blue",le="0.001"} 4
tanknet_room_tick_duration_seconds_bucket{room="blue",le="+Inf"} 4
tanknet_room_tick_duration_seconds_sum{room="blue"} 0.002
tanknet_room_tick_duration_seconds_count{room="blue"} 4
tanknet_room_tick_duration_seconds_bucket{room="default",le="0.001"} 10
tanknet_room_tick_duration_seconds_bucket{room="default",le="+Inf"} 10
tanknet_room_tick_duration_seconds_sum{room="default"} 0.005
tanknet_room_tick_duration_seconds_count{room="default"} 10
`
	if err := testutil.CollectAndCompare(metrics.Collector(func() server.Stats { return st }), strings.NewReader(want),
		"tanknet_rooms", "tanknet_room_players", "tanknet_room_tick_duration_seconds"); err != nil {
		t.Error(err)
	}
	st.Rooms = st.Rooms[1:]
	if n := testutil.CollectAndCount(metrics.Collector(func() server.Stats { return st }), "tanknet_room_players"); n != 1 {
		t.Errorf("%d room_players series after the default room closed, want 1", n)
	}
}

// TestCollector_RoomInputBuffer: each open room exports its input buffer figures under its
// room label: player-ticks, starved and doubled ones, and the wait and depth histograms.
func TestCollector_RoomInputBuffer(t *testing.T) {
	in := server.InputBufferStats{PlayerTicks: 200, Starved: 3, Doubled: 1,
		Wait:  server.Histogram{UpperBounds: []float64{0.005, 0.05}, Counts: []uint64{150, 40}, Count: 198, Sum: 1.5},
		Depth: server.Histogram{UpperBounds: []float64{0, 1}, Counts: []uint64{60, 130}, Count: 200, Sum: 150}}
	st := server.Stats{Rooms: []server.RoomStats{{Name: "default", Players: 1, Input: in}}}
	want := `
# HELP tanknet_room_player_ticks_total Player-ticks of each open room: one tick of one player that has had an input applied and has not left.
# TYPE tanknet_room_player_ticks_total counter
tanknet_room_player_ticks_total{room="default"} 200
# HELP tanknet_room_player_ticks_starved_total Player-ticks that applied no input because none was waiting (the tank stood for lack of input).
# TYPE tanknet_room_player_ticks_starved_total counter
tanknet_room_player_ticks_starved_total{room="default"} 3
# HELP tanknet_room_player_ticks_doubled_total Player-ticks that applied more than one input (the tank moved two steps' worth or more in one tick).
# TYPE tanknet_room_player_ticks_doubled_total counter
tanknet_room_player_ticks_doubled_total{room="default"} 1
# HELP tanknet_room_input_wait_seconds How long each applied input waited at the server, from its first copy's arrival to the tick that applied it.
# TYPE tanknet_room_input_wait_seconds histogram
tanknet_room_input_wait_seconds_bucket{room="default",le="0.005"} 150
tanknet_room_input_wait_seconds_bucket{room="default",le="0.05"} 190
tanknet_room_input_wait_seconds_bucket{room="default",le="+Inf"} 198
tanknet_room_input_wait_seconds_sum{room="default"} 1.5
tanknet_room_input_wait_seconds_count{room="default"} 198
# HELP tanknet_room_input_buffer_depth Inputs still waiting in a player's buffer after each player-tick.
# TYPE tanknet_room_input_buffer_depth histogram
tanknet_room_input_buffer_depth_bucket{room="default",le="0"} 60
tanknet_room_input_buffer_depth_bucket{room="default",le="1"} 190
tanknet_room_input_buffer_depth_bucket{room="default",le="+Inf"} 200
tanknet_room_input_buffer_depth_sum{room="default"} 150
tanknet_room_input_buffer_depth_count{room="default"} 200
`
	if err := testutil.CollectAndCompare(metrics.Collector(func() server.Stats { return st }), strings.NewReader(want),
		"tanknet_room_player_ticks_total", "tanknet_room_player_ticks_starved_total", "tanknet_room_player_ticks_doubled_total",
		"tanknet_room_input_wait_seconds", "tanknet_room_input_buffer_depth"); err != nil {
		t.Error(err)
	}
}

// TestHandler_RefusesACollectorTwice: a collector whose metrics are already registered is
// an error of Handler and of Serve, which closes its listener; nothing panics.
func TestHandler_RefusesACollectorTwice(t *testing.T) {
	stats := func() server.Stats { return server.Stats{} }
	if _, err := metrics.Handler(stats, nil, metrics.Collector(stats)); err == nil {
		t.Error("Handler registered the tanknet_ metrics twice")
	}
	ln, err := metrics.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if err := metrics.Serve(context.Background(), ln, stats, nil, metrics.Collector(stats)); err == nil {
		t.Error("Serve served the tanknet_ metrics twice")
	}
	if _, err := ln.Accept(); err == nil {
		t.Error("Serve left its listener open after failing")
	}
}
