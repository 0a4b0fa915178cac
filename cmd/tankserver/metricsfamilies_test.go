package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestMetrics_EveryFamilyExported pins what a running tankserver (-web and -metrics) serves
// on /metrics: every metric family by name, type, help and label names, and for the
// tanknet_ families every label value and histogram bucket too. Any change to the list, an
// added, removed or renamed metric included, fails it: update wantFamilies on purpose, with
// docs/PROTOCOL.md §11, never to make a refactoring pass.
func TestMetrics_EveryFamilyExported(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, _, logs := startWebGameWith(t, ctx, func(c *Config) { c.Metrics = "127.0.0.1:0" }, nil)
	logs.waitFor(t, "serving metrics")
	m := regexp.MustCompile(`url=(http://127\.0\.0\.1:[0-9]+/metrics)`).FindStringSubmatch(logs.String())
	if m == nil {
		t.Fatalf("no metrics url in the log:\n%s", logs.String())
	}
	want := strings.Split(strings.TrimPrefix(wantFamilies, "\n"), "\n")
	// The default room's families appear once its first tick has run, which on a busy
	// machine may come after the first scrape: scrape again until they match, for 10 s.
	var got []string
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		resp, err := http.Get(m[1])
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %s %v", m[1], resp.Status, err)
		}
		got = describeFamilies(string(body))
		if slices.Equal(got, want) {
			return
		}
		if time.Now().After(deadline) {
			break
		}
	}
	for _, line := range want {
		if !slices.Contains(got, line) {
			t.Errorf("/metrics lacks:\n%s", line)
		}
	}
	for _, line := range got {
		if !slices.Contains(want, line) {
			t.Errorf("/metrics has, unlisted:\n%s", line)
		}
	}
	if !t.Failed() {
		t.Errorf("/metrics lists its families in another order:\n%s", strings.Join(got, "\n"))
	}
}

// family is what describeFamilies keeps of one metric family of the text format.
type family struct {
	name, typ, help string
	labels          map[string][]string // label name -> values seen, in order of appearance
}

// describeFamilies reads Prometheus text and returns one line per family, "name type" then
// each label (le included for a histogram, quantile for a summary), sorted by name; then
// its help on a line of its own, after a tab. A tanknet_ family's labels carry their values
// (label=a|b, sorted but for le); another's only their names, as the Go runtime's and the
// process's values differ from machine to machine.
func describeFamilies(text string) []string {
	var fams []*family
	byName := map[string]*family{}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "# HELP "); ok {
			name, help, _ := strings.Cut(rest, " ")
			f := &family{name: name, help: help, labels: map[string][]string{}}
			fams, byName[name] = append(fams, f), f
			continue
		}
		if rest, ok := strings.CutPrefix(line, "# TYPE "); ok {
			name, typ, _ := strings.Cut(rest, " ")
			byName[name].typ = typ
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := fams[len(fams)-1] // a family's samples follow its HELP and TYPE
		_, labels, _ := strings.Cut(strings.Fields(line)[0], "{")
		for _, pair := range strings.Split(strings.TrimSuffix(labels, "}"), ",") {
			name, value, ok := strings.Cut(pair, "=")
			if value = strings.Trim(value, `"`); ok && !slices.Contains(f.labels[name], value) {
				f.labels[name] = append(f.labels[name], value)
			}
		}
	}
	var out []string
	for _, f := range fams {
		out = append(out, f.describe(), "\t"+f.help)
	}
	return out
}

// describe is the family's line: name, type and labels.
func (f *family) describe() string {
	line := f.name + " " + f.typ
	names := make([]string, 0, len(f.labels))
	for name := range f.labels {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		line += " " + name
		if !strings.HasPrefix(f.name, "tanknet_") {
			continue
		}
		values := f.labels[name]
		if name != "le" {
			values = slices.Sorted(slices.Values(values))
		}
		line += "=" + strings.Join(values, "|")
	}
	return line
}

// wantFamilies is every family a tankserver with -web and -metrics exports, one room open,
// as describeFamilies lists them.
const wantFamilies = `
go_gc_duration_seconds summary quantile
	A summary of the wall-time pause (stop-the-world) duration in garbage collection cycles.
go_gc_gogc_percent gauge
	Heap size target percentage configured by the user, otherwise 100. This value is set by the GOGC environment variable, and the runtime/debug.SetGCPercent function. Sourced from /gc/gogc:percent.
go_gc_gomemlimit_bytes gauge
	Go runtime memory limit configured by the user, otherwise math.MaxInt64. This value is set by the GOMEMLIMIT environment variable, and the runtime/debug.SetMemoryLimit function. Sourced from /gc/gomemlimit:bytes.
go_goroutines gauge
	Number of goroutines that currently exist.
go_info gauge version
	Information about the Go environment.
go_memstats_alloc_bytes gauge
	Number of bytes allocated in heap and currently in use. Equals to /memory/classes/heap/objects:bytes.
go_memstats_alloc_bytes_total counter
	Total number of bytes allocated in heap until now, even if released already. Equals to /gc/heap/allocs:bytes.
go_memstats_buck_hash_sys_bytes gauge
	Number of bytes used by the profiling bucket hash table. Equals to /memory/classes/profiling/buckets:bytes.
go_memstats_frees_total counter
	Total number of heap objects frees. Equals to /gc/heap/frees:objects + /gc/heap/tiny/allocs:objects.
go_memstats_gc_sys_bytes gauge
	Number of bytes used for garbage collection system metadata. Equals to /memory/classes/metadata/other:bytes.
go_memstats_heap_alloc_bytes gauge
	Number of heap bytes allocated and currently in use, same as go_memstats_alloc_bytes. Equals to /memory/classes/heap/objects:bytes.
go_memstats_heap_idle_bytes gauge
	Number of heap bytes waiting to be used. Equals to /memory/classes/heap/released:bytes + /memory/classes/heap/free:bytes.
go_memstats_heap_inuse_bytes gauge
	Number of heap bytes that are in use. Equals to /memory/classes/heap/objects:bytes + /memory/classes/heap/unused:bytes
go_memstats_heap_objects gauge
	Number of currently allocated objects. Equals to /gc/heap/objects:objects.
go_memstats_heap_released_bytes gauge
	Number of heap bytes released to OS. Equals to /memory/classes/heap/released:bytes.
go_memstats_heap_sys_bytes gauge
	Number of heap bytes obtained from system. Equals to /memory/classes/heap/objects:bytes + /memory/classes/heap/unused:bytes + /memory/classes/heap/released:bytes + /memory/classes/heap/free:bytes.
go_memstats_last_gc_time_seconds gauge
	Number of seconds since 1970 of last garbage collection.
go_memstats_mallocs_total counter
	Total number of heap objects allocated, both live and gc-ed. Semantically a counter version for go_memstats_heap_objects gauge. Equals to /gc/heap/allocs:objects + /gc/heap/tiny/allocs:objects.
go_memstats_mcache_inuse_bytes gauge
	Number of bytes in use by mcache structures. Equals to /memory/classes/metadata/mcache/inuse:bytes.
go_memstats_mcache_sys_bytes gauge
	Number of bytes used for mcache structures obtained from system. Equals to /memory/classes/metadata/mcache/inuse:bytes + /memory/classes/metadata/mcache/free:bytes.
go_memstats_mspan_inuse_bytes gauge
	Number of bytes in use by mspan structures. Equals to /memory/classes/metadata/mspan/inuse:bytes.
go_memstats_mspan_sys_bytes gauge
	Number of bytes used for mspan structures obtained from system. Equals to /memory/classes/metadata/mspan/inuse:bytes + /memory/classes/metadata/mspan/free:bytes.
go_memstats_next_gc_bytes gauge
	Number of heap bytes when next garbage collection will take place. Equals to /gc/heap/goal:bytes.
go_memstats_other_sys_bytes gauge
	Number of bytes used for other system allocations. Equals to /memory/classes/other:bytes.
go_memstats_stack_inuse_bytes gauge
	Number of bytes obtained from system for stack allocator in non-CGO environments. Equals to /memory/classes/heap/stacks:bytes.
go_memstats_stack_sys_bytes gauge
	Number of bytes obtained from system for stack allocator. Equals to /memory/classes/heap/stacks:bytes + /memory/classes/os-stacks:bytes.
go_memstats_sys_bytes gauge
	Number of bytes obtained from system. Equals to /memory/classes/total:byte.
go_sched_gomaxprocs_threads gauge
	The current runtime.GOMAXPROCS setting, or the number of operating system threads that can execute user-level Go code simultaneously. Sourced from /sched/gomaxprocs:threads.
go_threads gauge
	Number of OS threads created.
process_cpu_seconds_total counter
	Total user and system CPU time spent in seconds.
process_max_fds gauge
	Maximum number of open file descriptors.
process_network_receive_bytes_total counter
	Number of bytes received by the process over the network.
process_network_transmit_bytes_total counter
	Number of bytes sent by the process over the network.
process_open_fds gauge
	Number of open file descriptors.
process_resident_memory_bytes gauge
	Resident memory size in bytes.
process_start_time_seconds gauge
	Start time of the process since unix epoch in seconds.
process_virtual_memory_bytes gauge
	Virtual memory size in bytes.
process_virtual_memory_max_bytes gauge
	Maximum amount of virtual memory available in bytes.
tanknet_away_ticks_total counter
	Ticks an away player's tank stood still with nothing to apply; not counted as starved.
tanknet_aways_total counter
	Players that said they are away (an Away message: a hidden or frozen page), once until their next input.
tanknet_bad_frames_total counter
	Stream frames that carry no message the stream takes: undecodable, oversized, of an unknown kind or empty, or an InputBatch (a datagram).
tanknet_contacts_total counter
	Tank pairs pushed apart by contact resolution.
tanknet_discovery_requests_total counter outcome=answered|limited|malformed
	Datagrams read on the LAN discovery port, by what became of them (PROTOCOL.md §12).
tanknet_drops_total counter reason=cannot_keep_up|not_acknowledging|other|protocol_error|timeout
	Players the server removed, by kind of reason.
tanknet_fires_dropped_total counter
	Fires beyond the per-tick and waiting limits, dropped unanswered.
tanknet_gate_admissions gauge
	Addresses admitted right now (they passed the connect handshake).
tanknet_gate_admitted_total counter
	Addresses admitted by a valid cookie.
tanknet_gate_challenges_total counter
	Challenges (cookies) sent.
tanknet_gate_dropped_total counter reason=bad_cookie|full|malformed|throttled|unvalidated|wrong_conv
	Datagrams dropped by address validation, by reason: unvalidated (address not admitted), wrong_conv (admitted address, other conversation), bad_cookie, malformed, throttled (budget spent), full (too many admitted).
tanknet_gate_replaced_total counter
	Admitted addresses that started a new conversation after a fresh cookie.
tanknet_gate_unvalidated_bytes_total counter direction=in|out
	Bytes received from and sent to addresses not admitted (sent stays within 3x received).
tanknet_handshakes_evicted_total counter
	Silent handshakes closed to make room for newer connections.
tanknet_handshakes_in_progress gauge
	Connections that have not finished their Hello.
tanknet_inputs_applied_total counter
	MoveInputs simulated.
tanknet_inputs_clamped_total counter
	MoveInputs with turn or throttle outside [-1, 1], clamped.
tanknet_inputs_deferred_total counter
	Times a player's next input waited a tick for its time budget.
tanknet_inputs_early_total counter
	MoveInputs queued from an InputBatch datagram before their copy on the reliable stream arrived.
tanknet_inputs_past_gap_total counter
	Datagram MoveInputs left to the reliable stream because an earlier tick was still missing.
tanknet_inputs_redundant_total counter
	Copies of a MoveInput already queued: datagram repeats and stream copies.
tanknet_inputs_refused_total counter rule=duration|inbox_full|not_finite|too_far_ahead
	MoveInputs that broke a rule and got their client dropped, by rule.
tanknet_inputs_stale_total counter
	MoveInputs at or below a tick already queued, ignored.
tanknet_joins_total counter
	Handshakes accepted.
tanknet_kills_total counter
	Tanks destroyed.
tanknet_lane_datagrams_bad_total counter
	Unreliable-lane datagrams that were undecodable, oversized or of a wrong kind, and each MoveInput copy from one that broke rule 1, 2 or 4 of the input rules.
tanknet_lane_datagrams_ignored_total counter
	Well-formed unreliable-lane datagrams ignored: before the Welcome, on a server using the reliable lane, or beyond the rate allowed.
tanknet_leaves_total counter
	Players that left on their own (goodbye or closed connection).
tanknet_pings_ignored_total counter
	Pings beyond the allowed rate, not answered.
tanknet_players gauge
	Players in the game.
tanknet_pushes_refused_total counter reason=no_contact|not_predicted|too_long
	Contact pushes of MoveInputs applied as zero because the rules did not allow them, by reason.
tanknet_pushes_total counter
	Contact pushes of clients' MoveInputs applied (contact predicted).
tanknet_received_bytes_total counter
	UDP payload bytes received by the server socket.
tanknet_received_datagrams_total counter
	UDP datagrams received by the server socket.
tanknet_rejects_total counter code=bad_hello|busy|no_room|server_full|shutting_down|version_mismatch
	Handshakes refused, by reject code.
tanknet_respawns_total counter
	Destroyed tanks brought back.
tanknet_room_input_buffer_depth histogram le=0|1|2|3|4|5|6|7|8|16|64|+Inf room=default
	Inputs still waiting in a player's buffer after each player-tick.
tanknet_room_input_wait_seconds histogram le=0.001|0.002|0.005|0.01|0.02|0.05|0.1|0.2|0.4|1|+Inf room=default
	How long each applied input waited at the server, from its first copy's arrival to the tick that applied it.
tanknet_room_player_ticks_doubled_total counter room=default
	Player-ticks that applied more than one input (the tank moved two steps' worth or more in one tick).
tanknet_room_player_ticks_starved_total counter room=default
	Player-ticks that applied no input because none was waiting (the tank stood for lack of input).
tanknet_room_player_ticks_total counter room=default
	Player-ticks of each open room: one tick of one player that has had an input applied and has not left.
tanknet_room_players gauge room=default
	Players in each open room.
tanknet_room_tick_cpu_seconds histogram le=5e-05|0.0001|0.00025|0.0005|0.001|0.002|0.005|0.01|0.025|0.05|+Inf room=default
	Thread CPU time of each open room's ticks that stayed on one OS thread (Linux only).
tanknet_room_tick_duration_seconds histogram le=5e-05|0.0001|0.00025|0.0005|0.001|0.002|0.005|0.01|0.025|0.05|+Inf room=default
	Wall time of the work of one tick of each open room, on that room's own goroutine.
tanknet_rooms gauge
	Rooms (matches) open on this server, the default room included.
tanknet_sent_bytes_total counter
	UDP payload bytes sent by the server socket.
tanknet_sent_datagrams_total counter
	UDP datagrams sent by the server socket.
tanknet_shot_hits_total counter
	Accepted shots that hit a tank.
tanknet_shots_refused_total counter reason=bad_view|cooldown|destroyed|future_view|stale_tick|unplayed_tick|view_too_old
	Fires refused, by reason (the ShotRefusal without its prefix).
tanknet_shots_total counter
	Fires accepted and judged.
tanknet_snapshot_state_bytes_total counter motion=idle|moving
	Bytes of the tank entries sent in snapshots, by whether the tank moved that tick.
tanknet_snapshot_states_total counter motion=idle|moving
	Tank entries sent in snapshots, one per tank per receiving client, by whether the tank moved that tick.
tanknet_tick_cpu_seconds histogram le=5e-05|0.0001|0.00025|0.0005|0.001|0.002|0.005|0.01|0.025|0.05|+Inf
	Thread CPU time of the same work as tanknet_tick_duration_seconds, for the ticks that stayed on one OS thread (Linux only); wall time above it is waiting for a core, a lock or the scheduler.
tanknet_tick_duration_seconds histogram le=5e-05|0.0001|0.00025|0.0005|0.001|0.002|0.005|0.01|0.025|0.05|+Inf
	Wall time of one server tick's own work on its room's world goroutine, every room's ticks together: admit inputs, simulate, resolve contact, encode tank states; with interest management, per-client snapshots are built after it on worker goroutines.
tanknet_tick_handoff_seconds histogram le=5e-05|0.0001|0.00025|0.0005|0.001|0.002|0.005|0.01|0.025|0.05|+Inf
	Wall time after each tick's work on its room's goroutine: waking the session writers and yielding until they took its snapshots.
tanknet_ticks_total counter
	Server ticks run, in every room.
tanknet_web_buffer_drops_total counter
	Datagrams to browsers dropped because their channel held too much unsent.
tanknet_web_extra_channels_total counter
	Data channels closed because their peer already had its one.
tanknet_web_offers_answered_total counter
	WebRTC offers answered with 200.
tanknet_web_offers_refused_total counter reason=address_full|full|malformed|method|rate|size|stopping
	WebRTC offers refused, by reason.
tanknet_web_peers gauge
	Browser peer connections open right now.
tanknet_web_peers_dropped_total counter reason=bad_channel|evicted|failed|idle|left_game|never_joined|never_opened
	Browser peer connections closed by the server or lost, by reason.
tanknet_web_peers_joined_total counter
	Browser peers the game admitted (sent a datagram past the connect handshake).
tanknet_web_queue_drops_total counter
	Datagrams from browsers dropped because the game's reader fell behind.
tanknet_web_text_messages_total counter
	Text messages from browsers dropped (every datagram is a binary message).`
