package sim

import (
	"math"
	"slices"
	"sort"
	"sync"
	"time"

	"tanknet/netcode"
	"tanknet/server"
)

// History size in server ticks. A run keeps its whole length plus minHistoryTicks, so the
// playback error can look any frame up after the run, up to maxHistoryTicks.
const (
	minHistoryTicks = 600     // 30 s at 20 Hz: far beyond MaxDelay (400 ms) plus a long hold
	maxHistoryTicks = 1 << 17 // 1.8 h at 20 Hz, about 25 MB with 8 players
)

// maxTickDurations bounds the recorded tick durations: 14 h at 20 Hz, beyond any sane run.
const maxTickDurations = 1 << 20

// history is ground truth: the in-process server's pose of every player at each recent
// tick, and when each tick ran. The server's rooms record; bots read. Each room has its own
// ticks (roomTicks); a player's id says which room it is in, ids being unique across the
// server. It is safe for concurrent use.
type history struct {
	mu     sync.Mutex
	size   int                   // ticks each room keeps
	rooms  map[string]*roomTicks // by room name
	roomOf map[uint32]*roomTicks // by player id
	// start is the wall-clock moment of server time zero, estimated as the earliest
	// (observation time - server time) over all ticks: an observer runs right after its
	// tick, so the smallest gap is the closest to the truth. Every room shares it.
	start    time.Time
	hasStart bool
	durs     []time.Duration // wall time each tick took, in every room
	inputs   inputLog        // what the server did with the players' inputs
	contact  contactLog      // tanks that overlapped, and the pushes (contact.go)
}

// roomTicks is one room's ticks.
type roomTicks struct {
	ticks  []tickPoses // ring indexed by tick % len(ticks)
	latest uint32      // newest tick recorded
	durs   []time.Duration
}

// newHistory returns a history that keeps at least the last d of ticks.
func newHistory(d time.Duration) *history {
	n := min(maxHistoryTicks, minHistoryTicks+int(d/netcode.StepInterval))
	return &history{size: n, rooms: map[string]*roomTicks{}, roomOf: map[uint32]*roomTicks{}}
}

// slot returns where tick lives in the ring.
func (r *roomTicks) slot(tick uint32) *tickPoses { return &r.ticks[int(tick%uint32(len(r.ticks)))] }

// tickPoses is one tick of history. ids is sorted (the server keeps players in id order).
type tickPoses struct {
	tick  uint32 // 0: slot unused
	now   time.Duration
	ids   []uint32
	poses []netcode.Pose
}

// record stores rec, observed at wall time at. It copies rec's slices, which the server
// reuses.
func (h *history) record(rec server.TickRecord, at time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.rooms[rec.Room]
	if r == nil {
		r = &roomTicks{ticks: make([]tickPoses, h.size)}
		h.rooms[rec.Room] = r
	}
	for _, id := range rec.IDs {
		h.roomOf[id] = r
	}
	t := r.slot(rec.Tick)
	r.latest = max(r.latest, rec.Tick)
	t.tick, t.now = rec.Tick, rec.Now
	t.ids = append(t.ids[:0], rec.IDs...)
	t.poses = append(t.poses[:0], rec.Poses...)
	if s := at.Add(-rec.Now); !h.hasStart || s.Before(h.start) {
		h.start, h.hasStart = s, true
	}
	if len(h.durs) < maxTickDurations {
		h.durs = append(h.durs, rec.Duration)
		r.durs = append(r.durs, rec.Duration)
	}
	h.inputs.record(rec)
	h.contact.record(rec, at)
}

// inputMetrics returns the input figures over the server times and players in accepts (see
// inputLog), and whether the input log was cut short.
func (h *history) inputMetrics(in keep, sent sentAt) (m inputFigures, truncated bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	m.late = h.inputs.lateTicks(in, sent)
	if r, ok := h.inputs.starvedRatio(in); ok {
		m.starved = &r
	}
	m.waits = h.inputs.waits(in)
	m.doubles, m.uneven = h.inputs.ratios(in)
	return m, h.inputs.truncated
}

// inputFigures are the input metrics a run's window yields (see inputLog).
type inputFigures struct {
	late, waits     []float64
	starved         *float64
	doubles, uneven *float64
}

// wallOffset returns the wall time of server time zero (see start), and false before the
// first tick.
func (h *history) wallOffset() (time.Time, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.start, h.hasStart
}

// serverNow returns the server time at wall time wall, and false before the first tick.
func (h *history) serverNow(wall time.Time) (time.Duration, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return wall.Sub(h.start), h.hasStart
}

// at returns player id's pose and the server time at fractional tick ft, each interpolated
// between ticks floor(ft) and ceil(ft) like the client interpolates (netcode.Lerp). It
// returns false when either tick has left the history or not reached it, or the player is
// in neither tick. A player present in only one of the two ticks gets that tick's pose.
func (h *history) at(id uint32, ft float64) (netcode.Pose, time.Duration, bool) {
	if !(ft >= 1) || ft > math.MaxUint32 {
		return netcode.Pose{}, 0, false
	}
	lo := uint32(math.Floor(ft))
	hi := uint32(math.Ceil(ft))
	frac := ft - float64(lo)
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.roomOf[id]
	if r == nil {
		return netcode.Pose{}, 0, false
	}
	a, b := r.slot(lo), r.slot(hi)
	if a.tick != lo || b.tick != hi {
		return netcode.Pose{}, 0, false
	}
	now := a.now + time.Duration(frac*float64(b.now-a.now))
	pa, okA := a.pose(id)
	pb, okB := b.pose(id)
	switch {
	case okA && okB:
		return netcode.Lerp(pa, pb, frac), now, true
	case okA:
		return pa, now, true
	case okB:
		return pb, now, true
	}
	return netcode.Pose{}, 0, false
}

// tickAt returns the fractional tick player id's room was at at server time t: between the
// two recorded ticks around t, by their times. It returns false when t is outside the
// history or the player was never seen.
func (h *history) tickAt(id uint32, t time.Duration) (float64, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.roomOf[id]
	if r == nil || r.latest < 2 {
		return 0, false
	}
	oldest := uint32(1)
	if r.latest > uint32(len(r.ticks)) {
		oldest = r.latest - uint32(len(r.ticks)) + 1
	}
	// Tick times increase with the tick: find the first tick after t among oldest+1 to
	// latest, and t lies between the tick before it and it.
	n := int(r.latest - oldest)
	i := sort.Search(n, func(i int) bool { return r.slot(oldest+1+uint32(i)).now > t })
	k := oldest + uint32(min(i, n-1)) // t at or after the newest tick: the last pair, checked below
	a, b := r.slot(k), r.slot(k+1)
	if a.tick != k || b.tick != k+1 || t < a.now || t > b.now || b.now <= a.now {
		return 0, false
	}
	return float64(k) + float64(t-a.now)/float64(b.now-a.now), true
}

// pose returns player id's pose in t.
func (t *tickPoses) pose(id uint32) (netcode.Pose, bool) {
	i, ok := slices.BinarySearch(t.ids, id)
	if !ok {
		return netcode.Pose{}, false
	}
	return t.poses[i], true
}

// tickDurations returns a copy of the recorded tick durations: of every room for room "",
// of one room otherwise (the server names every room, the default one "default").
func (h *history) tickDurations(room string) []time.Duration {
	h.mu.Lock()
	defer h.mu.Unlock()
	if room == "" {
		return slices.Clone(h.durs)
	}
	if r := h.rooms[room]; r != nil {
		return slices.Clone(r.durs)
	}
	return nil
}
