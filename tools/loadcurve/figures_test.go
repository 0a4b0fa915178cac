package main

import (
	"testing"
	"time"

	"tanknet/internal/promtext"
	"tanknet/load"
)

// TestRoomP99s: each room's p99 is the upper edge of the first bucket holding 99% of the
// play's ticks, counted from the difference of two scrapes; a room past the last bucket
// reads +Inf, which the point carries as -1.
func TestRoomP99s(t *testing.T) {
	b := func(room, le string) string {
		return `tanknet_room_tick_duration_seconds_bucket{room="` + room + `",le="` + le + `"}`
	}
	before := promtext.Series{b("", "0.001"): 500, b("", "0.002"): 500, b("", "+Inf"): 500}
	after := promtext.Series{
		b("", "0.001"): 1490, b("", "0.002"): 1500, b("", "+Inf"): 1500, // 990 of 1000 within 1 ms
		b("room-2", "0.001"): 10, b("room-2", "0.002"): 20, b("room-2", "+Inf"): 100, // most past 2 ms
		"process_cpu_seconds_total": 12, "tanknet_tick_duration_seconds_count": 1100, "go_memstats_mallocs_total": 2200,
	}
	before["process_cpu_seconds_total"] = 2
	p := figures(before, after, &load.Report{Players: 64, Rooms: 2, Joined: 64, Wall: 10 * time.Second})
	if p.RoomTickP99MaxMs != -1 || p.RoomTickP99MedianMs != -1 {
		t.Errorf("p99 slowest, median = %v, %v ms, want -1 (past the last bucket) for both of two rooms", p.RoomTickP99MaxMs, p.RoomTickP99MedianMs)
	}
	delete(after, b("room-2", "+Inf"))
	delete(after, b("room-2", "0.001"))
	delete(after, b("room-2", "0.002"))
	p = figures(before, after, &load.Report{Players: 32, Rooms: 1, Joined: 32, Wall: 10 * time.Second})
	if p.RoomTickP99MaxMs != 1 {
		t.Errorf("p99 = %v ms, want 1 (990 of 1000 ticks within 1 ms)", p.RoomTickP99MaxMs)
	}
	if p.ServerCores != 1 || p.AllocsPerTick != 2 {
		t.Errorf("cores, allocs per tick = %v, %v, want 1, 2", p.ServerCores, p.AllocsPerTick)
	}
}
