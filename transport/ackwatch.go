package transport

import (
	"sync"
	"time"
)

// ackWatch follows whether one peer acknowledges the reliable data sent to it, from the KCP
// headers of the datagrams going each way. A peer that receives and reads advances its
// cumulative acknowledgement (una) soon after each push; one that cannot hear us (a spoofed
// source) or does not read (its receive window fills, then una stops) does not.
type ackWatch struct {
	mu       sync.Mutex
	sending  bool   // at least one push has been sent
	sentNext uint32 // one past the newest push sequence number sent
	una      uint32 // the peer's newest cumulative acknowledgement
	// progress is when the oldest unacknowledged push started waiting: when the peer last
	// acknowledged something new, or when a push went out with nothing else outstanding.
	progress time.Duration
	zeroWnd  bool          // the peer's latest segment advertised a full receive window
	zeroAt   time.Duration // when that began
}

// seqAfter reports whether sequence number a comes after b, modulo 2^32.
func seqAfter(a, b uint32) bool { return int32(a-b) > 0 }

// outstanding reports whether a sent push is not yet acknowledged. Call with mu held.
func (w *ackWatch) outstanding() bool { return w.sending && seqAfter(w.sentNext, w.una) }

// sent notes a datagram going to the peer at now.
func (w *ackWatch) sent(b []byte, now time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	kcpSegments(b, func(s kcpSegment) {
		if s.cmd != kcpCmdPush || (w.sending && !seqAfter(s.sn+1, w.sentNext)) {
			return // not data, or a retransmission
		}
		if !w.outstanding() {
			w.progress = now
		}
		w.sending, w.sentNext = true, s.sn+1
	})
}

// received notes a datagram from the peer at now.
func (w *ackWatch) received(b []byte, now time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	kcpSegments(b, func(s kcpSegment) {
		if seqAfter(s.una, w.una) {
			w.una, w.progress = s.una, now
		}
		switch {
		case s.wnd != 0:
			w.zeroWnd = false
		case !w.zeroWnd:
			w.zeroWnd, w.zeroAt = true, now
		}
	})
}

// stall returns how long, at now, the peer has left sent data unacknowledged or kept its
// receive window shut; 0 when it is keeping up.
func (w *ackWatch) stall(now time.Duration) time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	var d time.Duration
	if w.outstanding() {
		d = now - w.progress
	}
	if w.zeroWnd {
		d = max(d, now-w.zeroAt)
	}
	return max(d, 0)
}
