package server

import (
	"maps"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tankv1 "tanknet/proto/tank/v1"
)

// tally counts events by a short label such as a reject code or a drop reason. The events it
// counts are rare (a reject, a drop, a refused input), so a mutex is cheap enough.
type tally struct {
	mu sync.Mutex
	m  map[string]uint64
}

func (t *tally) add(label string) {
	t.mu.Lock()
	if t.m == nil {
		t.m = map[string]uint64{}
	}
	t.m[label]++
	t.mu.Unlock()
}

// snapshot returns a copy of the counts; nil when nothing was counted yet.
func (t *tally) snapshot() map[string]uint64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return maps.Clone(t.m)
}

// Labels for Stats.Rejects: the reject code without its prefix, in lower case.
func rejectLabel(code tankv1.RejectCode) string {
	return strings.ToLower(strings.TrimPrefix(code.String(), "REJECT_CODE_"))
}

// Labels for Stats.DropsByReason: what kind of reason dropped a player.
const (
	dropTimeout  = "timeout"           // the client went silent
	dropProtocol = "protocol_error"    // the client broke a rule of the protocol
	dropSlow     = "cannot_keep_up"    // the client did not take its bytes fast enough
	dropNoAck    = "not_acknowledging" // the client left our data unacknowledged (AckTimeout)
	dropOther    = "other"
)

// dropLabel sorts a drop reason (as sent in Disconnect and PlayerLeft) into one label.
func dropLabel(reason string) string {
	switch {
	case strings.HasPrefix(reason, "timed out"):
		return dropTimeout
	case strings.HasPrefix(reason, "protocol error"):
		return dropProtocol
	case strings.HasPrefix(reason, "cannot keep up"):
		return dropSlow
	case strings.HasPrefix(reason, "not acknowledging"):
		return dropNoAck
	}
	return dropOther
}

// Labels for Stats.InputsRefused: the rule a refused MoveInput broke.
const (
	ruleNotFinite = "not_finite"    // turn or throttle NaN or infinite
	ruleDuration  = "duration"      // duration outside [1 ms, MaxInputDuration]
	ruleLead      = "too_far_ahead" // tick beyond MaxInputLead past the last applied one
	ruleInboxFull = "inbox_full"    // more inputs between two ticks than the lead allows
)

// tickBuckets are the upper bounds of the tick-duration histogram: fine steps up to the
// 2 ms budget issue 10 sets for 256 players, then coarser ones up to a whole 50 ms tick.
var tickBuckets = [...]time.Duration{
	50 * time.Microsecond, 100 * time.Microsecond, 250 * time.Microsecond, 500 * time.Microsecond,
	time.Millisecond, 2 * time.Millisecond, 5 * time.Millisecond, 10 * time.Millisecond,
	25 * time.Millisecond, 50 * time.Millisecond,
}

// TickHistogram is a distribution of tick durations. Counts[i] is how many ticks took at most
// UpperBounds[i] and more than UpperBounds[i-1] (not cumulative); Count also counts ticks
// slower than the last bound.
type TickHistogram struct {
	UpperBounds []time.Duration
	Counts      []uint64
	Count       uint64
	Sum         time.Duration
}

// tickHistogram is the live form of TickHistogram, written by the world goroutine only.
type tickHistogram struct {
	counts [len(tickBuckets) + 1]atomic.Uint64 // one per bucket, then one for slower ticks
	sumNs  atomic.Int64
}

func (h *tickHistogram) observe(d time.Duration) {
	i := 0
	for i < len(tickBuckets) && d > tickBuckets[i] {
		i++
	}
	h.counts[i].Add(1)
	h.sumNs.Add(int64(d))
}

func (h *tickHistogram) snapshot() TickHistogram {
	s := TickHistogram{UpperBounds: tickBuckets[:], Counts: make([]uint64, len(tickBuckets)), Sum: time.Duration(h.sumNs.Load())}
	for i := range h.counts {
		n := h.counts[i].Load()
		if i < len(s.Counts) {
			s.Counts[i] = n
		}
		s.Count += n
	}
	return s
}
