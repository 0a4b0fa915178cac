package server

import (
	"sync/atomic"
	"time"
)

// A server whose process stops (SIGSTOP, a suspended laptop hosting a LAN game, a virtual
// machine migrating) or starves for CPU runs its ticks late, and when it goes on its
// players' packets of the whole pause are still waiting in its socket. None of that is the
// players' doing, so the server takes the blame itself:
//
//   - Idle timeouts: a connection found silent just after the server was stopped is given
//     IdleTimeout of grace from the moment the server runs again, time for its socket's
//     backlog to be read (pausedRecently).
//   - Input lead: a client's inputs may run ahead of its last applied one by the configured
//     lead plus every tick the server failed to run (world.World.Owe). That grace holds for
//     IdleTimeout after the server runs again (a player silent across the pause may speak
//     that late, its whole backlog at once) and then shrinks by a tick each tick, as the
//     backlogs are applied.

// heartbeatEvery is how often the heartbeat notes that the process runs; a gap of
// pauseGap between two notes means it did not.
const (
	heartbeatEvery = 100 * time.Millisecond
	pauseGap       = time.Second
)

// heartbeat notices when the whole process was stopped or starved.
type heartbeat struct {
	beat    atomic.Int64 // UnixNano of the newest note
	resumed atomic.Int64 // UnixNano of the end of the newest pause, 0 before one
}

// run notes every heartbeatEvery until done is closed.
func (h *heartbeat) run(done <-chan struct{}) {
	h.beat.Store(time.Now().UnixNano())
	t := time.NewTicker(heartbeatEvery)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			h.note(time.Now())
		}
	}
}

// note records that the process runs at now, and a pause if the last note is too old.
func (h *heartbeat) note(now time.Time) {
	if last := h.beat.Swap(now.UnixNano()); last != 0 && now.Sub(time.Unix(0, last)) > pauseGap {
		h.resumed.Store(now.UnixNano())
	}
}

// pausedRecently reports whether, at now, the process has just been stopped or starved:
// its heartbeat is overdue (it has not run since), or it resumed less than grace ago.
func (h *heartbeat) pausedRecently(now time.Time, grace time.Duration) bool {
	if beat := h.beat.Load(); beat != 0 && now.Sub(time.Unix(0, beat)) > pauseGap {
		return true
	}
	r := h.resumed.Load()
	return r != 0 && now.Sub(time.Unix(0, r)) < grace
}
