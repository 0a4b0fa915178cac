package main

import (
	"context"
	"fmt"
	"time"
)

// workerStartWait bounds how long the page waits for its worker's program to start (fetch
// and compile tankworker.wasm, which a slow phone or a busy machine may take seconds to
// do); once it has started, its join has the connect and dial timeouts, counted from then.
// The server keeps a channel that has sent nothing yet for 15 s after its offer, which
// the page posted before it told the worker to start; a worker that starts after that finds
// its channel closed and asks for a fresh one ("redial"), as does one that starts just
// before and has the channel closed under its connect handshake.
const workerStartWait = 12 * time.Second

// workerEvent is what the worker says of its session: joined, or why it could not join, or
// why the game ended.
type workerEvent struct {
	kind string // "joined", "error", "ended", or "redial" (its channel closed: signal afresh)
	// what is, for an error, "nopath" (the channel never opened) or "join"; for a redial,
	// "join" when the channel closed under the worker's join rather than unused.
	what    string
	message string
}

// awaitWorker returns the worker's first word on its session (joined, or why not): it waits
// up to startWait for the worker's program to start, then joinWait from then.
func awaitWorker(ctx context.Context, events <-chan workerEvent, started <-chan struct{}, startWait, joinWait time.Duration) (workerEvent, error) {
	wait := time.NewTimer(startWait)
	defer wait.Stop()
	for {
		select {
		case ev := <-events:
			return ev, nil
		case <-started:
			started = nil
			wait.Reset(joinWait)
		case <-wait.C:
			if started != nil {
				select {
				case <-started: // it started as the wait ran out: its join gets its own wait
					started = nil
					wait.Reset(joinWait)
					continue
				default:
				}
				return workerEvent{kind: "error", what: "join", message: fmt.Sprintf("the game's worker did not start within %v", startWait)}, nil
			}
			return workerEvent{kind: "error", what: "join", message: "the game's worker said nothing of its connection"}, nil
		case <-ctx.Done():
			return workerEvent{}, ctx.Err()
		}
	}
}

// redials is what the page has done about its worker's requests for a fresh channel.
type redials struct {
	afresh   bool // the page's channel came from signalling afresh (a stale early answer, or a redial)
	rejoined bool // it signalled afresh for a channel that closed under the worker's join
}

// answer reports whether the page signals afresh for ev, a redial, and notes that it does:
// once for a channel that closed under the worker's join, however the page's channel was
// signalled; for one that closed unused, only when the page has not signalled afresh already
// (the worker has that channel, or will).
func (r *redials) answer(ev workerEvent) bool {
	switch {
	case ev.what == "join" && !r.rejoined:
		r.rejoined = true
	case ev.what == "join" || r.afresh:
		return false
	}
	r.afresh = true
	return true
}
