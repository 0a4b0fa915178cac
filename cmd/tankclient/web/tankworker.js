// The page's game worker: tankworker (cmd/tankworker, built for js/wasm by make web) runs the
// game's connection, session and prediction clock here, off the page's frame loop, and hands
// the page each frame of its game to draw (client/tabworker). index.html starts it at once,
// so its program downloads and compiles beside the page's. What the page posts before the
// program runs waits here, in order, until the program takes it (tanknetTake).
importScripts("wasm_exec.js");
const queued = [];
let take = null;
self.onmessage = (e) => (take ? take(e.data) : queued.push(e.data));
self.tanknetTake = (fn) => setTimeout(() => { for (const m of queued.splice(0)) fn(m); take = fn; }, 0);
const go = new Go();
fetch("tankworker.wasm")
  .then((resp) => {
    if (!resp.ok) throw new Error("HTTP " + resp.status + " " + resp.statusText + " for tankworker.wasm");
    return WebAssembly.instantiateStreaming(resp, go.importObject);
  })
  .then((r) => go.run(r.instance))
  .catch((e) => self.postMessage({ type: "error", what: "join", message: "the game's worker could not start: " + e }));
