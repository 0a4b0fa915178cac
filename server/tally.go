package server

import (
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"tanknet/wire"
)

// tally counts events by a short label such as a reject code or a drop reason. The events it
// counts are rare (a reject, a drop, a refused input), so a mutex is cheap enough.
type tally struct {
	mu sync.Mutex
	m  map[string]uint64
}

func (t *tally) add(label string) { t.addN(label, 1) }

// addN counts n events of label.
func (t *tally) addN(label string, n uint64) {
	t.mu.Lock()
	if t.m == nil {
		t.m = map[string]uint64{}
	}
	t.m[label] += n
	t.mu.Unlock()
}

// snapshot returns a copy of the counts; nil when nothing was counted yet.
func (t *tally) snapshot() map[string]uint64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return maps.Clone(t.m)
}

// dropKind is a kind of reason for dropping a player, declared once: its code (sent in
// Disconnect, and named by it as its Stats.DropsByReason label) and the words its text
// starts with (in Disconnect, PlayerLeft and the log). Reasons are made with reason, so
// they cannot drift apart.
type dropKind struct {
	code  wire.DisconnectCode
	words string
}

var (
	dropTimeout  = dropKind{wire.DisconnectTimeout, "timed out"}                  // the client went silent
	dropProtocol = dropKind{wire.DisconnectProtocolError, "protocol error"}       // the client broke a rule of the protocol
	dropSlow     = dropKind{wire.DisconnectCannotKeepUp, "cannot keep up"}        // the client did not take its bytes fast enough
	dropNoAck    = dropKind{wire.DisconnectNotAcknowledging, "not acknowledging"} // the client left our data unacknowledged (AckTimeout)
	// dropShutdown is every player's when the server stops. Its players are not counted
	// (their rooms are gone), so it has no label of its own.
	dropShutdown = dropKind{wire.DisconnectShuttingDown, "server shutting down"}
	// dropKinds lists those with a label; a drop of any other kind counts as dropOther.
	dropKinds = []dropKind{dropTimeout, dropProtocol, dropSlow, dropNoAck}
)

const dropOther = "other"

// dropReason is why the server drops a player: its kind and a detail for people. The zero
// value is no drop.
type dropReason struct {
	kind   dropKind
	detail string
}

// reason returns the drop of kind k with detail, which reads "timed out: nothing received
// for 5s".
func (k dropKind) reason(detail string) dropReason { return dropReason{kind: k, detail: detail} }

// dropping reports whether r is a drop at all.
func (r dropReason) dropping() bool { return r.kind.code != wire.DisconnectUnspecified }

// String is the reason's text: the kind's words, then the detail if any, made plain and
// cut as every reason the others hear is (cleanText), so the player's Disconnect and the
// others' PlayerLeft say the same words (an error's detail may hold a no-break space or a
// newline).
func (r dropReason) String() string {
	if r.detail == "" {
		return r.kind.words
	}
	return cleanText(r.kind.words+": "+r.detail, maxReasonBytes)
}

// disconnect returns the Disconnect that tells the player.
func (r dropReason) disconnect() wire.Disconnect {
	return wire.Disconnect{Code: r.kind.code, Reason: r.String()}
}

// dropLabel returns the Stats.DropsByReason label of a drop of kind k: its code's name.
func dropLabel(k dropKind) string {
	if !slices.Contains(dropKinds, k) {
		return dropOther
	}
	return k.code.String()
}

// ruleInboxFull labels a client dropped for sending more inputs between two ticks than the
// lead allows (its session's inbox); the world names the other rules (world.RuleLead, ...).
// InputRuleLabels lists them all.
const ruleInboxFull = "inbox_full"

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

// Seconds returns h as a Histogram with its bounds and sum in seconds.
func (h TickHistogram) Seconds() Histogram {
	out := Histogram{UpperBounds: make([]float64, len(h.UpperBounds)), Counts: h.Counts, Count: h.Count, Sum: h.Sum.Seconds()}
	for i, ub := range h.UpperBounds {
		out.UpperBounds[i] = ub.Seconds()
	}
	return out
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
