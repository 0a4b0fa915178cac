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
// and the players the server dropped, with the wasm's size, whole and gzipped. Every page
// is a -size window (480x320 by default); with -fresh each timed load runs in a Chromium of
// its own with an empty profile, as a first visit does, instead of one browser that has
// the wasm cached after the first load.
//
// Webmeasure never decides pass or fail: timings depend on the machine and its load.
package main
