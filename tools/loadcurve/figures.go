package main

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"tanknet/internal/promtext"
	"tanknet/load"
)

// point is the curve at one player count: the server's figures over the play (from its
// metrics before and after) and the thin clients' report.
type point struct {
	Players int `json:"players"`
	Rooms   int `json:"rooms"`
	// RoomTickP99MaxMs is the slowest room's tick p99 (wall, its own work), the upper edge
	// of the histogram bucket that holds it; RoomTickP99MedianMs the median room's.
	RoomTickP99MaxMs    float64 `json:"room_tick_p99_max_ms"`
	RoomTickP99MedianMs float64 `json:"room_tick_p99_median_ms"`
	// TickWallMeanUs and TickCPUMeanUs are every room's ticks' mean wall and thread CPU
	// time; TickHandoffMeanUs the mean wake and yield after them.
	TickWallMeanUs    float64 `json:"tick_wall_mean_us"`
	TickCPUMeanUs     float64 `json:"tick_cpu_mean_us"`
	TickHandoffMeanUs float64 `json:"tick_handoff_mean_us"`
	// TicksWithinHalfMs is the share of every room's ticks whose wall time was 0.5 ms or
	// less (the histogram has a bucket edge there, so it is exact).
	TicksWithinHalfMs float64 `json:"ticks_within_half_ms"`
	ServerCores       float64 `json:"server_cpu_cores"`
	ServerRSSMB       float64 `json:"server_rss_mb"`
	AllocsPerTick     float64 `json:"allocs_per_room_tick"`
	DownBytesPerS     float64 `json:"down_bytes_per_s_per_client"`
	UpBytesPerS       float64 `json:"up_bytes_per_s_per_client"`
	ServerDrops       float64 `json:"server_drops"`
	// The clients' side (package load's report).
	JoinBurstMs        float64 `json:"join_burst_ms"`
	JoinP99Ms          float64 `json:"join_p99_ms"`
	Joined             int     `json:"joined"`
	JoinFailed         int     `json:"join_failed"`
	ClientsDropped     int     `json:"clients_dropped"`
	InputsUnapplied    uint64  `json:"inputs_unapplied"`
	InputP99Ms         float64 `json:"input_p99_ms"`
	SnapshotsMissing   uint64  `json:"snapshot_ticks_missing"`
	LoadCoresPerClient float64 `json:"load_cores_per_client"`
}

// figures builds the point of a play from the scrapes at its start and end.
func figures(before, after promtext.Series, rep *load.Report) point {
	d := func(name string) float64 { return after.Sum(name) - before.Sum(name) }
	secs := rep.Wall.Seconds()
	ms := func(t time.Duration) float64 { return float64(t) / float64(time.Millisecond) }
	p := point{
		Players: rep.Players, Rooms: rep.Rooms,
		ServerRSSMB:        after.Sum("process_resident_memory_bytes") / (1 << 20),
		ServerCores:        d("process_cpu_seconds_total") / secs,
		ServerDrops:        d("tanknet_drops_total"),
		JoinBurstMs:        ms(rep.JoinBurst),
		JoinP99Ms:          ms(rep.JoinP99),
		Joined:             rep.Joined,
		JoinFailed:         rep.JoinFailed,
		ClientsDropped:     rep.Dropped,
		InputsUnapplied:    rep.InputsUnapplied,
		InputP99Ms:         ms(rep.InputP99),
		SnapshotsMissing:   rep.SnapshotTicksMissing,
		LoadCoresPerClient: rep.CoresPerClient,
	}
	if ticks := d("tanknet_tick_duration_seconds_count"); ticks > 0 {
		p.TickWallMeanUs = d("tanknet_tick_duration_seconds_sum") / ticks * 1e6
		p.AllocsPerTick = d("go_memstats_mallocs_total") / ticks
		p.TicksWithinHalfMs = d(`tanknet_tick_duration_seconds_bucket{le="0.0005"}`) / ticks
	}
	if n := d("tanknet_tick_handoff_seconds_count"); n > 0 { // a server before the handoff histogram has none
		p.TickHandoffMeanUs = d("tanknet_tick_handoff_seconds_sum") / n * 1e6
	}
	if n := d("tanknet_tick_cpu_seconds_count"); n > 0 {
		p.TickCPUMeanUs = d("tanknet_tick_cpu_seconds_sum") / n * 1e6
	}
	if rep.Joined > 0 {
		p.DownBytesPerS = d("tanknet_sent_bytes_total") / secs / float64(rep.Joined)
		p.UpBytesPerS = d("tanknet_received_bytes_total") / secs / float64(rep.Joined)
	}
	p99s := roomP99s(before, after)
	if len(p99s) > 0 {
		sort.Float64s(p99s)
		p.RoomTickP99MaxMs, p.RoomTickP99MedianMs = msOrAbove(p99s[len(p99s)-1]), msOrAbove(p99s[len(p99s)/2])
	}
	return p
}

// roomP99s returns each room's tick p99 over the play, in seconds: the upper edge of the
// bucket of tanknet_room_tick_duration_seconds that holds it (+Inf past the last).
func roomP99s(before, after promtext.Series) []float64 {
	const family = "tanknet_room_tick_duration_seconds_bucket{room=\""
	buckets := map[string]map[float64]float64{} // room -> upper edge -> ticks at or below it
	for k, v := range after {
		rest, ok := strings.CutPrefix(k, family)
		if !ok {
			continue
		}
		room, le, ok := strings.Cut(rest, "\",le=\"")
		if !ok {
			continue
		}
		edge, err := strconv.ParseFloat(strings.TrimSuffix(le, "\"}"), 64)
		if err != nil {
			edge = math.Inf(1)
		}
		if buckets[room] == nil {
			buckets[room] = map[float64]float64{}
		}
		buckets[room][edge] = v - before[k]
	}
	var out []float64
	for _, b := range buckets {
		edges := make([]float64, 0, len(b))
		for e := range b {
			edges = append(edges, e)
		}
		sort.Float64s(edges)
		total := b[edges[len(edges)-1]]
		if total <= 0 {
			continue
		}
		for _, e := range edges {
			if b[e] >= 0.99*total {
				out = append(out, e)
				break
			}
		}
	}
	return out
}

// msOrAbove returns seconds as milliseconds, and -1 for +Inf (above the histogram's last
// bucket, 50 ms), which JSON cannot carry.
func msOrAbove(s float64) float64 {
	if math.IsInf(s, 1) {
		return -1
	}
	return s * 1e3
}
