package sim

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"tanknet/internal/promtext"
	"tanknet/netcode"
	"tanknet/server"
)

// TestRoomShares: -rooms splits any number of bots into contiguous shares that differ by
// at most one bot, every bot in exactly one, and botRoom agrees with the shares.
func TestRoomShares(t *testing.T) {
	for _, c := range []struct{ bots, rooms int }{{256, 8}, {7, 3}, {5, 5}, {9, 2}, {31, 8}} {
		cfg := Config{Bots: c.bots, Rooms: c.rooms}
		next, lo, hi := 0, c.bots, 0
		for k := range c.rooms {
			first, n := cfg.roomShare(k)
			if first != next || n < 1 {
				t.Fatalf("%d bots in %d rooms: room %d has bots %d+%d, want from %d and at least one", c.bots, c.rooms, k, first, n, next)
			}
			for i := first; i < first+n; i++ {
				if got := cfg.botRoom(i); got != roomNameOf(k) {
					t.Errorf("%d bots in %d rooms: bot %d joins %q, but its share is room %d (%q)", c.bots, c.rooms, i, got, k, roomNameOf(k))
				}
			}
			next, lo, hi = first+n, min(lo, n), max(hi, n)
		}
		if next != c.bots || hi-lo > 1 {
			t.Errorf("%d bots in %d rooms: shares cover %d bots, sizes %d to %d; want all, within one", c.bots, c.rooms, next, lo, hi)
		}
	}
	if (Config{Bots: 4, Room: "blue"}).botRoom(3) != "blue" || roomNameOf(0) != "" || roomNameOf(2) != "room-3" {
		t.Error("-room puts every bot in its room; -rooms names the default room, then room-2 and on")
	}
}

func TestConfigRooms(t *testing.T) {
	for _, c := range []struct {
		mutate func(*Config)
		err    string
	}{
		{func(c *Config) { c.Rooms = 9 }, "every room needs a bot"},
		{func(c *Config) { c.Rooms = -1 }, "-rooms -1"},
		{func(c *Config) { c.Rooms, c.Room = 2, "blue" }, "not both"},
		{func(c *Config) { c.Rooms, c.Groups = 2, []Group{{Bots: 8, Net: "lan"}} }, "-group"},
	} {
		cfg := DefaultConfig()
		c.mutate(&cfg)
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("Validate = %v, want an error saying %q", err, c.err)
		}
	}
}

// TestHistogramQuantile: quantiles are interpolated inside the bucket the rank falls in;
// the max is the upper bound of the highest bucket reached.
func TestHistogramQuantile(t *testing.T) {
	h := histogram{bounds: []float64{0.5, 1, 2, 5}, counts: []float64{50, 40, 9, 1}, count: 100}
	for _, c := range []struct{ q, want float64 }{{0.5, 0.5}, {0.25, 0.25}, {0.9, 1}, {0.99, 2}, {0.7, 0.75}, {0.995, 3.5}, {1, 5}} {
		if got := h.quantile(c.q); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("quantile(%v) = %v, want %v", c.q, got, c.want)
		}
	}
	over := histogram{bounds: []float64{1, 2}, counts: []float64{1, 0}, count: 3} // two ticks beyond the last bound
	if got := over.quantile(0.99); got != 2 {
		t.Errorf("a rank beyond the last bound: %v, want that bound (2)", got)
	}
}

// TestRoomHistogramsFromMetrics reads per-room tick histograms the way a tankserver's
// -metrics endpoint writes them.
func TestRoomHistogramsFromMetrics(t *testing.T) {
	text := `# TYPE tanknet_room_tick_duration_seconds histogram
tanknet_room_tick_duration_seconds_bucket{room="blue",le="0.001"} 8
tanknet_room_tick_duration_seconds_bucket{room="blue",le="0.0005"} 5
tanknet_room_tick_duration_seconds_bucket{room="blue",le="+Inf"} 10
tanknet_room_tick_duration_seconds_count{room="blue"} 10
tanknet_room_tick_duration_seconds_bucket{room="default",le="0.0005"} 3
tanknet_room_tick_duration_seconds_count{room="default"} 3
tanknet_tick_duration_seconds_bucket{le="0.0005"} 8
`
	m, err := promtext.Read(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	rooms := roomHistograms(m)
	blue := rooms["blue"]
	if len(rooms) != 2 || blue.count != 10 || len(blue.bounds) != 2 || blue.bounds[0] != 0.5 || blue.bounds[1] != 1 || blue.counts[0] != 5 || blue.counts[1] != 3 {
		t.Errorf("rooms %+v: want blue's buckets in ms, sorted, 5 and 3 of 10, and default's", rooms)
	}
}

// TestRunRoomsReportEachRoomApart: four bots spread over two rooms of the in-process
// server; each room's report has its own two bots, each of which saw only its room's two
// tanks, and its own tick figures.
func TestRunRoomsReportEachRoomApart(t *testing.T) {
	if testing.Short() {
		t.Skip("plays for 2 s over loopback")
	}
	cfg := DefaultConfig()
	cfg.Bots, cfg.Rooms, cfg.Duration, cfg.Contact, cfg.Net = 4, 2, 2*time.Second, netcode.ContactOff, "lan"
	r := runFor(t, cfg).Report
	if r == nil || len(r.Rooms) != 2 {
		t.Fatalf("report = %+v, want one with two rooms", r)
	}
	for i, want := range []string{server.DefaultRoom, "room-2"} {
		room := r.Rooms[i]
		if room.Room != want || room.Bots != 2 || room.ServerTick == nil || room.RoomTick == nil || room.ResidualNonZero != 0 {
			t.Errorf("room %d: %q with %d bots, tick %+v / %+v, residuals %d; want %q, 2 bots, both tick figures, 0",
				i, room.Room, room.Bots, room.ServerTick, room.RoomTick, room.ResidualNonZero, want)
		}
	}
	for _, c := range r.Clients {
		if c.PlayersSeen != 2 {
			t.Errorf("player %d in room %q saw %d players, want its room's 2", c.PlayerID, c.Room, c.PlayersSeen)
		}
	}
	var text bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "room-2   2") {
		t.Errorf("text report lacks the room table row:\n%s", text.String())
	}
}

// TestRunInOneRoomTimesThatRoom: bots in room blue are timed by blue's ticks, not the
// empty default room's beside it.
func TestRunInOneRoomTimesThatRoom(t *testing.T) {
	if testing.Short() {
		t.Skip("plays for 2 s over loopback")
	}
	cfg := DefaultConfig()
	cfg.Bots, cfg.Room, cfg.Duration, cfg.Contact, cfg.Net = 2, "blue", 2*time.Second, netcode.ContactOff, "lan"
	spec, err := newSpec(cfg, cfg.Net, cfg.Interp, cfg.Lane)
	if err != nil {
		t.Fatal(err)
	}
	d, err := simulate(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	r := buildReport(d)
	blue, all := d.truth.tickDurations("blue"), d.truth.tickDurations("")
	var ms []float64
	for _, d := range blue {
		ms = append(ms, millis(d))
	}
	if want := quantiles(ms); len(all) <= len(blue) || r.ServerTick == nil || want == nil || *r.ServerTick != *want {
		t.Errorf("server_tick_ms %+v from %d of blue's ticks and %d in all: want blue's alone", r.ServerTick, len(blue), len(all))
	}
	for _, c := range r.Clients {
		if c.Room != "blue" {
			t.Errorf("player %d in room %q, want blue", c.PlayerID, c.Room)
		}
	}
}
