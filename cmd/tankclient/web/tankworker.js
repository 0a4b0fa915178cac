// The page's game worker: tankworker (cmd/tankworker, built for js/wasm by make web) runs the
// game's connection, session and prediction clock here, off the page's frame loop, and hands
// the page each frame of its game to draw (client/tabworker). index.html starts it at once,
// with the page's URL parameters, and its program loads and compiles at once too, beside the
// page's, on another core where there is one (a page joins sooner so, and draws its first
// frame a little later: docs/MEASUREMENTS.md, "In a browser"), and joins as soon as its
// channel opens. What the page posts before the program runs waits here, in order, until the
// program takes it (tanknetTake).
importScripts("wasm_exec.js");
const queued = [];
let take = null;
self.onmessage = (e) => { take ? take(e.data) : queued.push(e.data); };
self.tanknetTake = (fn) => setTimeout(() => { for (const m of queued.splice(0)) fn(m); take = fn; }, 0);
const go = new Go();
fetch("tankworker.wasm")
  .then((resp) => {
    if (!resp.ok) throw new Error("HTTP " + resp.status + " " + resp.statusText + " for tankworker.wasm");
    return WebAssembly.instantiateStreaming(resp, go.importObject);
  })
  .then((r) => go.run(r.instance))
  .catch((e) => self.postMessage({ type: "error", what: "join", message: "the game's worker could not start: " + e }));
