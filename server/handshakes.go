package server

import (
	"slices"
	"sync"
)

// handshakes are the connections that have not finished their Hello yet. Their number is
// capped; when a new connection arrives at the cap, the oldest waiting one is closed to make
// room. An honest client finishes its handshake within a round trip, so it is never the
// oldest for long, while a flood of silent sessions only ever evicts itself: nobody can hold
// the door shut by opening sessions and saying nothing.
type handshakes struct {
	mu      sync.Mutex
	max     int
	waiting []*session // oldest first
}

// admit adds sess and returns the session it evicts to stay within the cap, or nil.
func (h *handshakes) admit(sess *session) (evicted *session) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.waiting) >= h.max {
		evicted = h.waiting[0]
		h.waiting = slices.Delete(h.waiting, 0, 1)
	}
	h.waiting = append(h.waiting, sess)
	return evicted
}

// done removes sess, whose handshake has ended either way; unknown sessions are ignored.
func (h *handshakes) done(sess *session) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if i := slices.Index(h.waiting, sess); i >= 0 {
		h.waiting = slices.Delete(h.waiting, i, i+1)
	}
}

// len returns how many handshakes are in progress.
func (h *handshakes) len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.waiting)
}
