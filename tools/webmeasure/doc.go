// Command webmeasure measures the browser client against a real tankserver on this
// machine's loopback and prints one JSON object, for docs/MEASUREMENTS.md:
//
//	make build web && go run ./tools/webmeasure -connects 10 -pages 8 -bots 8 -duration 60s
//
// It runs bin/tankserver -web and headless Chromium (internal/cdp). First it
// opens the page -connects times, one after another, for the time from opening it to the
// Welcome (connect_ms: loading the wasm, the WebRTC connection and the join; phases_ms: when
// each step of it happened, from navigation start, p50 and max); then -pages
// pages whose tanks drive themselves (?bot=1) play for -duration beside -bots native bots
// (bin/tanksim -server), and it reports both sides' round trips, snapshots lost, residuals
// and the players the server dropped, the pages' input waits (the server's reports of how
// long their inputs waited in its buffer, each page's p50 and p90) and frame rates, with the
// wasm's size, whole and gzipped, and the game worker's. By default the pages run their game
// in a Web Worker, as the page does unless told worker=0; -worker=false measures the page
// with everything on its one thread, to compare. Every page
// is a -size window (480x320 by default); with -fresh each timed load runs in a Chromium of
// its own with an empty profile, as a first visit does, instead of one browser that has
// the wasm cached after the first load. With -runs N the load run plays N times, one after
// another against the same server: a page's round trip beside a native one moves by a
// millisecond from one run to the next on a busy two-core machine, so the report gives every
// run's pair (rtt_runs), each run's gap (rtt_gap_ms: page minus native, p50 over the runs)
// and the rest of the figures from the run whose gap is that median. browser_cores says
// what the browser's processes used while that run's pages played (from 3 s after the last
// was opened, for half of -duration), by the kind Chromium names them ("GPU", "renderer",
// "browser", a utility process's service): where a page's round trip waits for a core, it
// says who held the cores. Drawing in software, the GPU process runs the pages' WebGL and
// composites them: 1.4 of two cores for one 1280x720 page on the machine MEASUREMENTS.md
// names.
//
// main.go runs the measurement and prints the report; pages.go opens the pages and reads
// their reports; processes.go runs the server, the bots and Chromium; cores.go reads what
// Chromium's processes use; away.go and demo.go are -away and -demo; contact.go reads the
// server's contact counters.
//
// Webmeasure never decides pass or fail: timings depend on the machine and its load.
package main
