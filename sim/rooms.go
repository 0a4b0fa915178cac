package sim

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"tanknet/internal/promtext"
	"tanknet/server"
)

// botRoom returns the room bot i joins: Config.Room, or with Rooms > 1 its share's room,
// the bots split into Rooms contiguous shares as even as they go.
func (c Config) botRoom(i int) string {
	if c.Rooms <= 1 {
		return c.Room
	}
	return roomNameOf(i * c.Rooms / c.Bots)
}

// roomNameOf names a run's k-th room (from 0): the default room, then "room-2" and on.
func roomNameOf(k int) string {
	if k == 0 {
		return ""
	}
	return fmt.Sprintf("room-%d", k+1)
}

// roomShare returns the bots of a run's k-th room: first..first+n-1 (see botRoom).
func (c Config) roomShare(k int) (first, n int) {
	first = (k*c.Bots + c.Rooms - 1) / c.Rooms // the smallest i with i*Rooms/Bots >= k
	next := ((k+1)*c.Bots + c.Rooms - 1) / c.Rooms
	return first, next - first
}

// roomReports builds one Report per room of a run with Rooms > 1, from the room's own bots,
// as groupReports does for groups: the room's tick times are its own (RoomTick); the CPU
// and bytes per tank are the whole server's.
func roomReports(d *runData) []Report {
	cfg := d.spec.cfg
	if cfg.Rooms <= 1 {
		return nil
	}
	var out []Report
	for k, name := range cfg.roomNames() {
		first, n := cfg.roomShare(k)
		sub := *d
		sub.spec.cfg.Bots, sub.spec.cfg.Rooms = n, 0
		sub.bots = d.bots[first : first+n]
		sub.room = name
		sub.notes = nil
		r := buildReport(&sub)
		r.Room, r.Clients = name, nil // the whole run's report lists every bot once
		r.RoomTick = d.roomTick(name)
		out = append(out, r)
	}
	return out
}

// roomTick returns the tick durations of rooms, together, over the measured window from
// the server's own histogram of each (server.RoomStats; tanknet_room_tick_duration_seconds
// from an external server), nil when the run could not read them.
func (d *runData) roomTick(rooms ...string) *Quantiles {
	if d.watch == nil {
		return nil
	}
	first, last, ok := d.watch.span(d.windowStart, d.windowEnd)
	if !ok {
		return nil
	}
	var sum histogram
	for _, room := range rooms {
		a, b := first.rooms[room], last.rooms[room]
		if len(b.counts) == 0 || len(a.counts) != 0 && len(a.counts) != len(b.counts) {
			continue // not open at the window's end, or read in another shape: nothing to say
		}
		if sum.bounds == nil {
			sum = histogram{bounds: b.bounds, counts: make([]float64, len(b.counts))}
		} else if len(sum.bounds) != len(b.bounds) {
			continue
		}
		sum.count += b.count - a.count
		for i := range b.counts {
			sum.counts[i] += b.counts[i]
			if len(a.counts) > 0 {
				sum.counts[i] -= a.counts[i]
			}
		}
	}
	if sum.count <= 0 {
		return nil
	}
	return &Quantiles{P50: sum.quantile(0.5), P99: sum.quantile(0.99), Max: sum.quantile(1)}
}

// roomNames returns the server's names of a run's rooms (its bots' rooms).
func (c Config) roomNames() []string {
	if c.Rooms <= 1 {
		if c.Room == "" {
			return []string{server.DefaultRoom}
		}
		return []string{c.Room}
	}
	names := make([]string, c.Rooms)
	for k := range names {
		if names[k] = roomNameOf(k); names[k] == "" {
			names[k] = server.DefaultRoom
		}
	}
	return names
}

// histogram is a tick-duration histogram read from the server: counts[i] ticks took at
// most bounds[i] (ms) and more than bounds[i-1]; the count beyond the last bound is
// count minus their sum.
type histogram struct {
	bounds []float64 // upper bounds (ms), increasing
	counts []float64 // per bucket, not cumulative
	count  float64
}

// histogramOf converts the server's histogram.
func histogramOf(th server.TickHistogram) histogram {
	h := histogram{count: float64(th.Count)}
	for i, ub := range th.UpperBounds {
		h.bounds = append(h.bounds, millis(ub))
		h.counts = append(h.counts, float64(th.Counts[i]))
	}
	return h
}

// quantile estimates the q-quantile (ms) the way Prometheus' histogram_quantile does: find
// the bucket where the rank falls and interpolate linearly inside it. A rank beyond the
// last bound returns that bound (the histogram knows no more); q 1 is the upper bound of
// the highest bucket with a tick in it.
func (h histogram) quantile(q float64) float64 {
	rank := q * h.count
	lower, seen := 0.0, 0.0
	for i, n := range h.counts {
		if n > 0 && seen+n >= rank {
			if q >= 1 {
				return h.bounds[i]
			}
			return lower + (h.bounds[i]-lower)*(rank-seen)/n
		}
		seen += n
		lower = h.bounds[i]
	}
	if len(h.bounds) == 0 {
		return math.NaN()
	}
	return h.bounds[len(h.bounds)-1]
}

// roomTickSeries is the name of the per-room tick histogram a tankserver's -metrics shows.
const roomTickSeries = server.Namespace + "_room_tick_duration_seconds"

// roomHistograms reads every room's tick histogram from a scrape (promtext.Read):
// the cumulative _bucket{room="R",le="B"} series and _count{room="R"}.
func roomHistograms(m promtext.Series) map[string]histogram {
	type bucket struct{ le, cum float64 }
	buckets := map[string][]bucket{}
	counts := map[string]float64{}
	for series, v := range m {
		name, labels, ok := strings.Cut(strings.TrimSuffix(series, "}"), "{")
		if !ok {
			continue
		}
		room, le := label(labels, "room"), label(labels, "le")
		switch name {
		case roomTickSeries + "_bucket":
			if b, err := strconv.ParseFloat(le, 64); err == nil && !math.IsInf(b, 1) {
				buckets[room] = append(buckets[room], bucket{b * 1000, v})
			}
		case roomTickSeries + "_count":
			counts[room] = v
		}
	}
	out := map[string]histogram{}
	for room, bs := range buckets {
		slices.SortFunc(bs, func(a, b bucket) int { return cmp.Compare(a.le, b.le) })
		h := histogram{count: counts[room]}
		prev := 0.0
		for _, b := range bs {
			h.bounds = append(h.bounds, b.le)
			h.counts = append(h.counts, b.cum-prev)
			prev = b.cum
		}
		out[room] = h
	}
	return out
}

// label returns the value of label key in a series' labels (`a="x",b="y"`), "" if absent.
// tankserver's room names need no escaping (letters, digits, '-' and '_').
func label(labels, key string) string {
	for _, kv := range strings.Split(labels, ",") {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return strings.Trim(v, `"`)
		}
	}
	return ""
}
