package server

import (
	"slices"
	"sync"
	"time"
)

// graceForHello is how long a new connection is safe from eviction: an honest client's
// Hello rides in its very first datagram, so only a server too busy to schedule the
// connection's reader takes longer than this to read it. An honest session must never be
// evicted: kcp-go acknowledges the Hello before we read it, so its client would wait for a
// Welcome that never comes.
const graceForHello = time.Second

// handshakes are the connections that have not sent their first message yet. Their number is
// capped; when a new connection arrives at the cap, the oldest waiting one is closed to make
// room. An honest client finishes its handshake within a round trip, so it is never the
// oldest for long, while a flood of silent sessions only ever evicts itself: nobody can hold
// the door shut by opening sessions and saying nothing. A connection younger than
// graceForHello is not evicted while fewer than twice the cap are waiting, so a burst of
// honest joins faster than the server reads them does not evict its own members.
type handshakes struct {
	mu      sync.Mutex
	max     int
	waiting []waitingHandshake // oldest first
}

type waitingHandshake struct {
	sess  *session
	since time.Time
}

// admit adds sess, arriving at now, and returns the session it evicts to stay within the
// cap, or nil.
func (h *handshakes) admit(sess *session, now time.Time) (evicted *session) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.waiting) >= h.max && (len(h.waiting) >= 2*h.max || now.Sub(h.waiting[0].since) >= graceForHello) {
		evicted = h.waiting[0].sess
		h.waiting = slices.Delete(h.waiting, 0, 1)
	}
	h.waiting = append(h.waiting, waitingHandshake{sess, now})
	return evicted
}

// done removes sess, whose first message has arrived (or failed to), and reports whether it
// was still waiting: false means it was evicted meanwhile and is being closed.
func (h *handshakes) done(sess *session) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if i := slices.IndexFunc(h.waiting, func(w waitingHandshake) bool { return w.sess == sess }); i >= 0 {
		h.waiting = slices.Delete(h.waiting, i, i+1)
		return true
	}
	return false
}

// len returns how many handshakes are in progress.
func (h *handshakes) len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.waiting)
}
