package main

import (
	"fmt"
	"strconv"
	"time"
)

// A section is one table of docs/MEASUREMENTS.md: what it shows, and one row per command.
type section struct {
	title string
	about string // a paragraph: what the figures mean and what to look for
	rows  []row
	cols  []column
	// timeout bounds one command of the section; 0 is runTimeout.
	timeout time.Duration
}

// A row is one run: a label and the command (bin/ programs; "xvfb" wraps a window in Xvfb).
// Its figures are read from the report's top, or from the part at path (e.g. "groups.1":
// the second group of a tanksim -group run). Rows with the same command share one run.
type row struct {
	label string
	cmd   []string
	path  string
}

// A column is one figure of a run's JSON report, by its dotted path ("rtt_ms.p50").
type column struct {
	header, path string
}

// tanksim returns the tanksim command with args, reporting JSON.
func tanksim(args ...string) []string {
	return append(append([]string{"bin/tanksim"}, args...), "-json")
}

// frameReport returns a window's -frame-report run under Xvfb on a 1920x1080 screen.
func frameReport(args ...string) []string {
	return append([]string{"xvfb-run", "-a", "-s", "-screen 0 1920x1080x24", "bin/tankclient"}, args...)
}

var netcodeCols = []column{
	{"reconciliations", "reconciliations"}, {"residual ≠ 0", "residual_nonzero"},
	{"snapshots lost", "snapshots_lost"}, {"holds ratio", "holds_ratio"},
	{"remote delay p50 / p99 ms", "remote_delay_ms.p50 remote_delay_ms.p99"},
	{"RTT p50 ms", "rtt_ms.p50"}, {"HOL stalls", "hol_stalls"},
	{"input late p99 ticks", "input_late_ticks.p99"},
}

var fireCols = []column{
	{"shots", "shots"}, {"server hits", "hits"}, {"shooter saw hits", "client_hits"},
	{"hit agreement", "hit_agreement"}, {"rewind p50 / p99 ms", "rewind_ms.p50 rewind_ms.p99"},
	{"kills", "kills"},
}

// groupsRun is the two-group run the groups section reads twice, a group a row.
var groupsRun = tanksim("-bots", "8", "-duration", "20s", "-group", "4:up=mobile-3g,down=lan", "-group", "4:wifi-bad", "-interp", "adaptive", "-seed", "7")

// contactRows are the contact section's runs: eight bots for 60 s on each network with each
// contact mode and two seeds, then sixteen on the default arena (crowded).
func contactRows() []row {
	var rows []row
	for _, net := range []string{"none", "wifi-bad", "mobile-3g"} {
		for _, seed := range []string{"7", "11"} {
			for _, mode := range []string{"off", "server", "predicted"} {
				rows = append(rows, row{fmt.Sprintf("%s, seed %s, contact %s", net, seed, mode),
					tanksim("-bots", "8", "-duration", "60s", "-interp", "adaptive", "-net", net, "-seed", seed, "-contact", mode), ""})
			}
		}
	}
	for _, seed := range []string{"7", "11"} {
		for _, mode := range []string{"off", "server", "predicted"} {
			rows = append(rows, row{fmt.Sprintf("16 bots (crowded), seed %s, contact %s", seed, mode),
				tanksim("-bots", "16", "-duration", "60s", "-interp", "adaptive", "-net", "broadband", "-seed", seed, "-contact", mode), ""})
		}
	}
	return rows
}

// sections are the measurements, in the document's order.
var sections = []section{
	{
		title: "Frame rate of the window",
		about: "The three-pane demo at its default size (1800 × 800) with 16 tanks on the field (the near and far players and 14 bots), without bots, and at 1280 × 720, under Xvfb's software renderer (llvmpipe) on a 1920 × 1080 screen. A frame's cost follows the window's pixels more than the tanks: Ebitengine clears and copies the whole window once a frame. The first second (shader compilation) is not counted.",
		rows: []row{
			{"demo, 14 bots", frameReport("-demo", "-server", "127.0.0.1:7861", "-bots", "14", "-frame-report", "600"), ""},
			{"demo, no bots", frameReport("-demo", "-server", "127.0.0.1:7862", "-bots", "0", "-frame-report", "600"), ""},
			{"demo at 1280 × 720, 14 bots", frameReport("-demo", "-server", "127.0.0.1:7863", "-bots", "14", "-width", "1280", "-height", "720", "-frame-report", "600"), ""},
		},
		cols: []column{{"fps", "fps"}, {"frame p50 ms", "frame_ms.p50"}, {"frame p99 ms", "frame_ms.p99"}, {"frame max ms", "frame_ms.max"}},
	},
	{
		title: "The network off the frame loop",
		about: "The demo's players run on their own clock between frames (client.Runner): what arrives is taken at once and each 50 ms prediction step's input leaves when it falls due, whatever the frame rate. With -frame-driven they run only when a frame is drawn, as before: the inputs of the steps due since the last frame leave together, and the server's input buffer has to hold them for longer. Wait: how long the near and far players' inputs waited in the server's buffer (the demo's -frame-report), under Xvfb's software renderer.",
		rows: []row{
			{"demo, 14 bots", frameReport("-demo", "-server", "127.0.0.1:7865", "-bots", "14", "-frame-report", "600"), ""},
			{"demo, 14 bots, -frame-driven", frameReport("-demo", "-server", "127.0.0.1:7866", "-bots", "14", "-frame-report", "600", "-frame-driven"), ""},
			{"demo at 1280 × 720, 14 bots", frameReport("-demo", "-server", "127.0.0.1:7867", "-bots", "14", "-width", "1280", "-height", "720", "-frame-report", "600"), ""},
			{"demo at 1280 × 720, 14 bots, -frame-driven", frameReport("-demo", "-server", "127.0.0.1:7868", "-bots", "14", "-width", "1280", "-height", "720", "-frame-report", "600", "-frame-driven"), ""},
		},
		cols: []column{{"fps", "fps"}, {"near wait p50 / p99 ms", "input_wait_ms.0.p50 input_wait_ms.0.p99"},
			{"far wait p50 / p99 ms", "input_wait_ms.1.p50 input_wait_ms.1.p99"}, {"clock jumps near / far", "input_wait_ms.0.clock_resyncs input_wait_ms.1.clock_resyncs"}},
	},
	{
		title: "Two snapshot lanes on a bad network",
		about: "Snapshots travel as unreliable datagrams by default: a lost one is skipped and interpolation bridges the gap, where the ordered KCP stream (-lane reliable) holds every later snapshot behind the retransmission (head-of-line stalls). Tank contact is on (predicted, the default): a reconciliation moves a prediction (residual ≠ 0) only where the server had to separate a pile-up itself, on either lane.",
		rows: []row{
			{"wifi-bad, datagram", tanksim("-bots", "8", "-duration", "20s", "-net", "wifi-bad", "-interp", "adaptive"), ""},
			{"wifi-bad, reliable", tanksim("-bots", "8", "-duration", "20s", "-net", "wifi-bad", "-interp", "adaptive", "-lane", "reliable"), ""},
			{"mobile-3g, datagram", tanksim("-bots", "8", "-duration", "20s", "-net", "mobile-3g", "-interp", "adaptive"), ""},
			{"mobile-3g, reliable", tanksim("-bots", "8", "-duration", "20s", "-net", "mobile-3g", "-interp", "adaptive", "-lane", "reliable"), ""},
		},
		cols: netcodeCols,
	},
	{
		title: "The server's input buffer and the clients' time dilation",
		about: "With the buffer on (the default) the server applies one input per player per tick and each bot runs its clock up to 10% fast or slow to keep its inputs just in time; off, the server applies whatever arrived, as before. Starved: player-ticks with no input (the tank stands); doubled: player-ticks with more than one (it lurches); uneven motion: moving player-ticks whose displacement on the server differs from the tick before's by over 30%. Wait: from an input's arrival to the tick that applied it. Contact is on (predicted): a residual comes only with a pile-up the server separated itself, and tanks that lurch pile up more.",
		rows: []row{
			{"lan, buffer on", tanksim("-bots", "8", "-duration", "20s", "-net", "lan", "-interp", "adaptive", "-seed", "7", "-input-buffer", "on"), ""},
			{"lan, buffer off", tanksim("-bots", "8", "-duration", "20s", "-net", "lan", "-interp", "adaptive", "-seed", "7", "-input-buffer", "off"), ""},
			{"broadband, buffer on", tanksim("-bots", "8", "-duration", "20s", "-net", "broadband", "-interp", "adaptive", "-seed", "7", "-input-buffer", "on"), ""},
			{"broadband, buffer off", tanksim("-bots", "8", "-duration", "20s", "-net", "broadband", "-interp", "adaptive", "-seed", "7", "-input-buffer", "off"), ""},
			{"wifi-bad, buffer on", tanksim("-bots", "8", "-duration", "20s", "-net", "wifi-bad", "-interp", "adaptive", "-seed", "7", "-input-buffer", "on"), ""},
			{"wifi-bad, buffer off", tanksim("-bots", "8", "-duration", "20s", "-net", "wifi-bad", "-interp", "adaptive", "-seed", "7", "-input-buffer", "off"), ""},
			{"mobile-3g, buffer on", tanksim("-bots", "8", "-duration", "20s", "-net", "mobile-3g", "-interp", "adaptive", "-seed", "7", "-input-buffer", "on"), ""},
			{"mobile-3g, buffer off", tanksim("-bots", "8", "-duration", "20s", "-net", "mobile-3g", "-interp", "adaptive", "-seed", "7", "-input-buffer", "off"), ""},
		},
		cols: []column{
			{"starved", "input_starved_ratio"}, {"doubled", "input_double_ratio"},
			{"uneven motion", "motion_uneven_ratio"}, {"wait p50 / p99 ms", "input_wait_ms.p50 input_wait_ms.p99"},
			{"clock p50 / max abs %", "dilation.p50 dilation.max_abs_pct"}, {"residual ≠ 0", "residual_nonzero"},
			{"server separations", "contact_figures.contacts"}, {"snaps", "snaps"},
		},
	},
	{
		title: "Two groups of bots on two networks, and each network alone",
		about: "tanksim -group splits the bots into groups with networks of their own and reports each group apart. Here four bots send over mobile-3g and receive over a LAN, four play on wifi-bad, in one match; then each network alone with eight bots. A group's figures follow its own network, not the other group's: its round trip, how long its remote tanks are drawn behind the server, its input buffer's wait.",
		rows: []row{
			{"group: 4 on up=mobile-3g,down=lan", groupsRun, "groups.0"},
			{"group: 4 on wifi-bad", groupsRun, "groups.1"},
			{"alone: 8 on up=mobile-3g,down=lan", tanksim("-bots", "8", "-duration", "20s", "-net", "up=mobile-3g,down=lan", "-interp", "adaptive", "-seed", "7"), ""},
			{"alone: 8 on wifi-bad", tanksim("-bots", "8", "-duration", "20s", "-net", "wifi-bad", "-interp", "adaptive", "-seed", "7"), ""},
		},
		cols: []column{
			{"RTT p50 ms", "rtt_ms.p50"}, {"remote delay p50 / p99 ms", "remote_delay_ms.p50 remote_delay_ms.p99"},
			{"holds ratio", "holds_ratio"}, {"input wait p50 ms", "input_wait_ms.p50"}, {"starved", "input_starved_ratio"},
			{"residual ≠ 0", "residual_nonzero"},
		},
	},
	{
		title: "Tank contact: off, the server's, predicted",
		about: "Eight bots for 60 s on three networks, two seeds each, and sixteen on the default arena (crowded, broadband), with each contact mode: off (tanks pass through each other), server (the server pushes overlapping tanks apart after each tick: clients cannot predict it) and predicted, the default (each client pushes its own tank in its inputs, PROTOCOL.md §7c). A residual is a reconciliation that moved the prediction; snaps are the corrections too large or too long to smooth, per bot-minute. Overlaps are measured on the server's ticks, in tank radii (2: one centre on the other), over the pairs of tanks overlapping at the end of a tick. With contact predicted, pushes the server refused and pairs it had to separate itself (past one radius of overlap) are the only sources of residuals.",
		rows:  contactRows(),
		cols: []column{
			{"residual share", "residual_ratio"}, {"residual max", "residual_max"}, {"snaps / bot-min", "snaps_per_bot_minute"},
			{"overlap p99 / max radii", "contact_figures.overlap_p99_radii contact_figures.overlap_max_radii"},
			{"pushes (refused)", "contact_figures.pushes contact_figures.pushes_refused"},
			{"server separations", "contact_figures.contacts"},
			{"starved / doubled", "input_starved_ratio input_double_ratio"}, {"holds ratio", "holds_ratio"},
		},
	},
	{
		title: "Input to screen",
		about: "From the frame that first gets a new input to the first frame whose drawn own tank moved with it: the own tank is drawn a partial step ahead, so a key shows in the same frame (0 ms) or the next.",
		rows: []row{
			{"broadband, 8 bots", tanksim("-bots", "8", "-duration", "20s"), ""},
			{"same, no partial step", tanksim("-bots", "8", "-duration", "20s", "-no-partial-step"), ""},
		},
		cols: []column{{"input to visible p50 / p99 / max ms", "input_to_visible_ms.p50 input_to_visible_ms.p99 input_to_visible_ms.max"}, {"RTT p50 ms", "rtt_ms.p50"}},
	},
	{
		title: "Shooting, with and without lag compensation",
		about: "Eight gunner bots (the sharpest skill) fire for 20 s. Hit agreement is, over the shots the server accepted, the share where its verdict equals the shooter's verdict on what it drew. With lag compensation the server rewinds each target to what its shooter drew, so agreement is 1, or a shot or two short of it on a slow link now that tanks shove each other (the cause is not pinned down yet); without it the server judges against a present the shooter never saw.",
		rows: []row{
			{"none, lag comp on", tanksim("-bots", "8", "-duration", "20s", "-net", "none", "-fire", "-lagcomp=true"), ""},
			{"none, lag comp off", tanksim("-bots", "8", "-duration", "20s", "-net", "none", "-fire", "-lagcomp=false"), ""},
			{"broadband, lag comp on", tanksim("-bots", "8", "-duration", "20s", "-net", "broadband", "-fire", "-lagcomp=true"), ""},
			{"broadband, lag comp off", tanksim("-bots", "8", "-duration", "20s", "-net", "broadband", "-fire", "-lagcomp=false"), ""},
			{"mobile-3g, lag comp on", tanksim("-bots", "8", "-duration", "20s", "-net", "mobile-3g", "-fire", "-lagcomp=true"), ""},
			{"mobile-3g, lag comp off", tanksim("-bots", "8", "-duration", "20s", "-net", "mobile-3g", "-fire", "-lagcomp=false"), ""},
		},
		cols: fireCols,
	},
	{
		title: "256 players on one server",
		about: "The large arena (160 × 100) with interest management: each client is sent only the tanks within 25 units of its own, as deltas against snapshots it acknowledged. Bots run at 20 frames a second so one 2-core machine can drive 256 of them; their prediction steps stay 50 ms.",
		rows: []row{
			{"256 bots, large arena", tanksim("-bots", "256", "-duration", "20s", "-net", "none", "-arena", "large", "-bot-fps", "20"), ""},
		},
		cols: []column{{"server tick p50 / p99 ms", "server_tick_ms.p50 server_tick_ms.p99"}, {"snapshots ratio min", "snapshots_ratio_min"},
			{"down bytes/s per client", "bytes_per_s.down"}, {"up bytes/s per client", "bytes_per_s.up"}, {"residual ≠ 0", "residual_nonzero"}},
	},
	{
		title: "Rooms: eight matches of 32 beside one of 256",
		about: "One tankserver process, started by scripts/roomscale.sh on its own (so its CPU time, read from its -metrics endpoint, is the server's alone), plays 256 bots on the large arena for 20 s: spread over eight rooms of 32 (tanksim -rooms 8), then all in one room. Each room ticks on its own goroutine; its tick times come from the server's per-room histogram (tanknet_room_tick_duration_seconds), estimated inside a bucket, so a p99 between 1 and 2 ms reads as such but not more finely. CPU and bytes are the whole server's and the bots' means; a bot that cannot join or is dropped fails the run.",
		rows: append(append([]row{{"8 rooms × 32, every room", roomScale(8), ""}}, roomRows()...),
			row{"1 room × 256", roomScale(1), ""}),
		cols: []column{{"bots", "bots"}, {"room tick p50 / p99 ms", "room_tick_ms.p50 room_tick_ms.p99"}, {"server CPU cores", "server_cpu_cores"},
			{"down bytes/s per client", "bytes_per_s.down"}, {"up bytes/s per client", "bytes_per_s.up"},
			{"snapshots ratio min", "snapshots_ratio_min"}, {"residual ≠ 0", "residual_nonzero"}},
	},
	{
		title:   "The cost curve: thin players in rooms of 32",
		about:   "tools/loadcurve starts bin/tankserver alone in its process on the large arena for each size, on the machine's first CPU alone (-split: taskset -c 0, so Go gives it one core and the figures are one core's), and fills rooms of 32 with thin clients (tankload's, package load) from its own process on the other CPU: each sends a MoveInput every 50 ms with the InputBatch datagram, acknowledges snapshots and pings, and predicts and draws nothing. A thin client drives kcp-go's KCP core itself and sends the very datagrams a full client's session sends (tankload counts them per client tick each way), so its cost (thin client cores each) is mostly the kernel's work for those datagrams; tools/packetfloor measures that floor alone, sending and receiving the same datagram counts and sizes a tick from as many sockets over loopback to a sink process that plays the server, with nothing decoded, as process CPU per client tick. No client that sends the same datagrams costs less, a full bot (tanksim's) included. The server's figures are read from its -metrics endpoint at the start and end of 20 s of play, after every client has joined: the slowest room's and the median room's tick p99 (the upper edge of the per-room histogram's bucket that holds it; -1 is above 50 ms), every tick's mean wall and thread CPU time (their gap is waiting for a core), process CPU and RSS, heap allocations per room tick (the whole process's, writers and readers included), and socket bytes per client each way. Join burst: every handshake, 64 in flight at once. Drops: sessions the server ended; unapplied: inputs the server had not acknowledged a second after the play; missing: snapshot ticks that never came whole. The chart is docs/plots/cost-curve.png (a p99 above 50 ms is left off it). How it grows, on the 2-core machine of this page: server CPU and RSS in proportion to the players (each session costs the same whatever its room), a room's tick not at all (32 players a room at every size), until the one core is full. At 2,048 players it is: the slowest room's ticks wait past 50 ms for the core, some snapshots never leave whole and some inputs go unapplied. The core, not the network or memory, is the first limit; the thin clients take three quarters of their own core there, so their latencies are not all the server's.",
		rows:    curveRows(),
		timeout: 10 * time.Minute, // four sizes, each 20 s of play with its joins
		cols: []column{{"joined", "joined"}, {"room tick p99 ms, slowest / median", "room_tick_p99_max_ms room_tick_p99_median_ms"},
			{"tick µs wall / CPU (means)", "tick_wall_mean_us tick_cpu_mean_us"}, {"ticks ≤ 0.5 ms wall", "ticks_within_half_ms"}, {"server CPU cores", "server_cpu_cores"},
			{"RSS MB", "server_rss_mb"}, {"allocs per room tick", "allocs_per_room_tick"},
			{"down / up bytes/s per client", "down_bytes_per_s_per_client up_bytes_per_s_per_client"},
			{"join burst ms", "join_burst_ms"}, {"drops server / client", "server_drops clients_dropped"},
			{"unapplied / missing", "inputs_unapplied snapshot_ticks_missing"}, {"thin client cores each", "load_cores_per_client"}},
	},
	{
		title:   "In a browser",
		timeout: 8 * time.Minute, // ten first visits, then five runs of 30 s
		about:   "The browser client (make web) in headless Chromium against bin/tankserver -web on loopback, measured by tools/webmeasure. First ten page loads one after another, timed from opening the page to the Welcome, with when each step of it happened (ms from navigation start, p50 over the ten): the wasm fetched and compiled, Go's main started, the page's WebRTC offer posted (the page's script signals while the wasm still loads), the answer, ICE connected, the data channel open, the Welcome. The first row's loads each run in a Chromium with an empty profile, as a first visit (-fresh); the others reuse one browser, which has the wasm cached after the first. Then pages whose tanks drive themselves beside native bots (tanksim -server): one page beside one bot for 30 s, for the two round trips side by side, at 480×320 and at 1280×720, five times one after another (webmeasure -runs 5: on two busy cores the gap between the two moves by a millisecond or more from one run to the next, so the gap is each run's page round trip minus its native one, the median of the five beside the smallest and largest, and the row's other figures are the median run's), and eight 480×320 pages beside eight bots for 60 s. Every page draws with Chromium's software renderer on the same cores as the server and the bots, and draws as many frames as it can, up to 60 a second (its canvas has no multisampling, which a software renderer pays for in every frame: index.html). At 1280×720 it cannot reach 60, so its frames take every core they can get and the page's round trip waits behind them; one page at 480×320 reaches 60 and leaves the cores time to spare. The page's game (the data channel's KCP, the session, the prediction and its 50 ms clock) runs in a Web Worker, and the page draws a replay of it from the frames the worker hands over, so what arrives is read at once whatever the frame costs; one row has the page run it all on its one thread between frames instead (worker=0, webmeasure -worker=false), as before. The browser cores column says which of Chromium's processes hold the cores: what its GPU process (which runs the pages' WebGL and composites the pages, both in software here) and its renderers (each page's thread and its worker) used while the median run's pages played, as Chromium counts them (SystemInfo.getProcessInfo). However little of the picture changed, every frame is three passes over every pixel in the GPU process: Ebitengine clears the whole canvas, then copies the finished picture over it (DrawFinalScreen), and Chromium composites the canvas into the page. The native bots' round trip is beside it, and in the first two rows that of a Go bot that joins over WebRTC as the page does, through pion rather than a browser (webmeasure -webrtc-bots, tanksim -web): the WebRTC bot's gap over the native one is the browsers' door (DTLS, SCTP and the carriage under the game), and the page's gap over the WebRTC bot's is the browser's own (its network process, its threads, the worker and the wasm). Round trips: each page's median over its session (its report's rtt_p50_ms), the median page's shown, and the median of every ping of the native bots. Input wait: how long the server held each of the page's inputs before the tick that applied it (its reports), the median page's p50. Contact is on (predicted), so a reconciliation has a residual only when the server changed a tank's path itself: the server's separations (pairs deeper than a tank radius it pushed apart) and the clients' pushes it refused in the run are beside the residuals, from its metrics (PROTOCOL.md §7c). The wasm's sizes are the gzipped copies tankserver sends, the page's and the worker's.",
		rows: []row{
			{"1 page + 1 native bot + 1 WebRTC bot, first visits", webmeasure("-fresh", "-connects", "10", "-pages", "1", "-bots", "1", "-webrtc-bots", "1", "-duration", "30s", "-runs", "5"), ""},
			{"1 page at 1280 × 720 + 1 native bot + 1 WebRTC bot", webmeasure("-connects", "10", "-pages", "1", "-bots", "1", "-webrtc-bots", "1", "-duration", "30s", "-size", "1280x720", "-runs", "5"), ""},
			{"the same, the game on the page's thread (worker=0)", webmeasure("-connects", "10", "-pages", "1", "-bots", "1", "-duration", "30s", "-size", "1280x720", "-worker=false"), ""},
			{"8 pages + 8 native bots", webmeasure("-connects", "10", "-pages", "8", "-bots", "8", "-duration", "60s"), ""},
		},
		cols: []column{{"connect ms p50 / max", "connect_ms.p50 connect_ms.max"},
			{"fetch / compile / start ms", "phases_ms.fetch.p50 phases_ms.compile.p50 phases_ms.start.p50"},
			{"offer / answer / ICE / channel / Welcome ms", "phases_ms.offer.p50 phases_ms.answer.p50 phases_ms.ice.p50 phases_ms.channel.p50 phases_ms.welcome.p50"},
			{"browser RTT p50 ms", "browser.rtt_ms.p50"},
			{"native RTT p50 ms", "native.rtt_ms.p50"},
			{"browser − native RTT ms, p50 / min / max of the runs", "rtt_gap_ms.p50 rtt_gap_ms.min rtt_gap_ms.max"},
			{"WebRTC bot RTT p50 ms", "webrtc.rtt_ms.p50"},
			{"WebRTC bot − native RTT ms, p50 / min / max of the runs", "webrtc_gap_ms.p50 webrtc_gap_ms.min webrtc_gap_ms.max"},
			{"browser snapshots lost", "browser.snapshots_lost"},
			{"snapshots/s, slowest page", "browser.snapshots_per_s_min"},
			{"residual ≠ 0 (browser / native)", "browser.residual_nonzero native.residual_nonzero"},
			{"server separations / pushes refused", "server_contact.separations server_contact.pushes_refused"},
			{"input wait p50 ms", "browser.input_wait_p50_ms.p50"}, {"page fps", "browser.fps.p50"},
			{"browser cores, GPU / renderer", "browser_cores.GPU browser_cores.renderer"},
			{"wasm gzipped bytes, page / worker", "wasm_gzip worker_wasm_gzip"}},
	},
	{
		title:   "A tab hidden, then frozen",
		about:   "One page whose tank drives itself (tools/webmeasure -away) is hidden for 60 s (told so with visibilitychange, as a browser tells a tab sent to the background), then frozen for 60 s through the Page Lifecycle (Page.setWebLifecycleState: no code runs in it), then brought back and played until its report, 15 s past twice the hold counted from its join (about 13 s after its return). Hidden, the page tells the server it is away (PROTOCOL.md §6b): the server holds its tank still and waits up to -away-timeout (2 min) instead of the 5 s idle timeout. Drops: players the server let go; snaps and residuals: the page's whole run.",
		rows:    []row{{"hidden 60 s, frozen 60 s", webmeasure("-away", "60s"), ""}},
		timeout: 5 * time.Minute, // two minutes away, and the play around them
		cols: []column{{"server drops", "server_drops"}, {"snaps", "page.snaps"}, {"residual ≠ 0", "page.residual_nonzero"},
			{"reconciliations", "page.reconciliations"}, {"snapshots lost", "page.snapshots_lost"}},
	},
	{
		title: "The demo in a tab",
		about: "The three-pane demo with its six bots at its default size (1800 × 800), in a headless Chromium page (?demo=1: its server, links and bots in the tab, no server needed; tools/webmeasure serves bin/web and reads the page's report after 20 s) beside the native window under Xvfb. Both draw in software on the same two cores; in the tab everything, the server included, shares one thread. Stated, not a goal: a browser drawing with a GPU is not measured here. The far player's lost snapshots are its mobile-3g link's 5% loss.",
		rows: []row{
			{"in headless Chromium", []string{"go", "run", "./tools/webmeasure", "-demo", "20"}, ""},
			{"native window", frameReport("-demo", "-server", "127.0.0.1:7864", "-frame-report", "600"), ""},
		},
		cols: []column{{"fps", "fps"}, {"near snapshots lost", "near_snapshots_lost"}, {"far snapshots lost", "far_snapshots_lost"}},
	},
}

// curveSizes are the cost curve's player counts.
var curveSizes = []int{256, 512, 1024, 2048}

// curveRows are the cost curve's sizes, a row each, from one tools/loadcurve run.
func curveRows() []row {
	cmd := []string{"go", "run", "./tools/loadcurve", "-split", "-plot", "docs/plots"}
	var rows []row
	for k, n := range curveSizes {
		rows = append(rows, row{fmt.Sprintf("%d players, %d rooms", n, n/32), cmd, fmt.Sprintf("points.%d", k)})
	}
	return rows
}

// webmeasure is tools/webmeasure with args.
func webmeasure(args ...string) []string {
	return append([]string{"go", "run", "./tools/webmeasure"}, args...)
}

// roomScale is scripts/roomscale.sh with rooms: a tankserver of its own and tanksim's JSON.
func roomScale(rooms int) []string {
	return []string{"scripts/roomscale.sh", strconv.Itoa(rooms), strconv.Itoa(7796 + 10*rooms)}
}

// roomRows are the eight rooms of the roomScale(8) run, a row each.
func roomRows() []row {
	var rows []row
	for k := range 8 {
		rows = append(rows, row{fmt.Sprintf("… room %d of 8", k+1), roomScale(8), fmt.Sprintf("rooms.%d", k)})
	}
	return rows
}

// matrix is the last section: every preset, lane and timeline with the input buffer on and
// off, and its bar charts.
var matrix = matrixSection{
	title:   "Every preset, lane and timeline, with the input buffer on and off",
	about:   "tanksim -matrix plays eight bots for 10 s on every preset but the perfect link, on both snapshot lanes, with both remote timelines (receive: interpolate behind the newest snapshot's arrival; adaptive: behind an estimate of the server's clock), each with the server's input buffer on and off: 40 runs, one after another, with tank contact on (predicted, as players have it). Each pair of rows differs only in the buffer. Holds: remote frames drawn with no pair of snapshots around them; starved, doubled and uneven motion as in the input buffer section above. The charts draw each lane and timeline in one colour, the buffer-off run in its lighter shade beside it.",
	cmd:     tanksim("-matrix", "-bots", "8", "-duration", "10s", "-seed", "7", "-plot", "docs/plots"),
	plotDir: "docs/plots",
	plots: []string{"matrix-input-starved", "matrix-motion-uneven", "matrix-input-wait", "matrix-holds-ratio",
		"matrix-remote-delay", "matrix-playback-error", "matrix-stalls", "matrix-corrections", "matrix-input-late"},
	cols: []column{
		{"holds", "holds_ratio"}, {"remote delay p50 ms", "remote_delay_ms.p50"}, {"playback RMS", "remote_playback_error.rms"},
		{"starved", "input_starved_ratio"}, {"doubled", "input_double_ratio"}, {"uneven motion", "motion_uneven_ratio"},
		{"wait p50 ms", "input_wait_ms.p50"}, {"lost / HOL stalls", "snapshots_lost hol_stalls"},
		{"residual ≠ 0", "residual_nonzero"}, {"snaps", "snaps"},
	},
}
