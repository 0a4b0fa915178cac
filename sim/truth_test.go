package sim

import (
	"math"
	"tanknet/world"
	"testing"
	"time"

	"tanknet/netcode"
	"tanknet/server"
)

// recordTicks records ticks 1..n of two players at server time tick*50ms+skew(tick): player 1
// moves along x one unit per tick, player 2 joins at tick 3 and sits still. Each tick is
// observed 1 ms after base+its server time; base is returned.
func recordTicks(h *history, n int, skew func(uint32) time.Duration) time.Time {
	base := time.Now()
	for tick := uint32(1); tick <= uint32(n); tick++ {
		now := time.Duration(tick)*50*time.Millisecond + skew(tick)
		rec := server.TickRecord{Now: now, Outcome: world.Outcome{Tick: tick, IDs: []uint32{1}, Poses: []netcode.Pose{{X: float64(tick), Heading: 0.1 * float64(tick)}}}}
		if tick >= 3 {
			rec.IDs = append(rec.IDs, 2)
			rec.Poses = append(rec.Poses, netcode.Pose{X: 7, Y: 7})
		}
		h.record(rec, base.Add(now+time.Millisecond)) // observed 1 ms after the tick
	}
	return base
}

func noSkew(uint32) time.Duration { return 0 }

func TestHistoryLerpsAtFractionalTicks(t *testing.T) {
	h := newHistory(time.Second)
	recordTicks(h, 10, noSkew)
	tests := []struct {
		name   string
		id     uint32
		tick   float64
		ok     bool
		x      float64
		sTime  time.Duration
		headng float64
	}{
		{"whole tick", 1, 4, true, 4, 200 * time.Millisecond, 0.4},
		{"quarter past", 1, 4.25, true, 4.25, 212500 * time.Microsecond, 0.425},
		{"three quarters", 1, 9.75, true, 9.75, 487500 * time.Microsecond, 0.975},
		{"newest tick", 1, 10, true, 10, 500 * time.Millisecond, 1},
		{"joined in the upper tick only", 2, 2.5, true, 7, 125 * time.Millisecond, 0},
		{"not reached yet", 1, 10.5, false, 0, 0, 0},
		{"before the first tick", 1, 0.5, false, 0, 0, 0},
		{"unknown player", 9, 4, false, 0, 0, 0},
		{"NaN", 1, math.NaN(), false, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, at, ok := h.at(tt.id, tt.tick)
			if ok != tt.ok {
				t.Fatalf("at(%d, %v) ok = %v, want %v", tt.id, tt.tick, ok, tt.ok)
			}
			if !ok {
				return
			}
			if math.Abs(p.X-tt.x) > 1e-9 || math.Abs(p.Heading-tt.headng) > 1e-9 || at != tt.sTime {
				t.Errorf("at(%d, %v) = x %v heading %v time %v, want x %v heading %v time %v",
					tt.id, tt.tick, p.X, p.Heading, at, tt.x, tt.headng, tt.sTime)
			}
		})
	}
}

func TestHistoryForgetsOldTicks(t *testing.T) {
	h := newHistory(0) // minHistoryTicks
	recordTicks(h, minHistoryTicks+50, noSkew)
	if _, _, ok := h.at(1, 10); ok {
		t.Error("at(1, 10) found a tick that the ring has overwritten")
	}
	p, at, ok := h.at(1, minHistoryTicks+40.5)
	if !ok || p.X != minHistoryTicks+40.5 {
		t.Errorf("at(1, %v) = %v, %v, want x %v", minHistoryTicks+40.5, p.X, ok, minHistoryTicks+40.5)
	}
	if ft, ok := h.tickAt(1, at); !ok || math.Abs(ft-(minHistoryTicks+40.5)) > 1e-9 {
		t.Errorf("tickAt(%v) in a wrapped ring = %v, %v, want %v", at, ft, ok, minHistoryTicks+40.5)
	}
	if ft, ok := h.tickAt(1, 10*50*time.Millisecond); ok {
		t.Errorf("tickAt(tick 10's time) = %v, want outside the history once overwritten", ft)
	}
}

func TestHistoryTickAtFollowsUnevenTicks(t *testing.T) {
	h := newHistory(time.Second)
	skew := func(tick uint32) time.Duration { return time.Duration(tick%3) * 7 * time.Millisecond } // a jittery ticker
	base := recordTicks(h, 20, skew)
	for _, ft := range []float64{1, 1.5, 5.2, 12.9, 19.99} {
		_, at, ok := h.at(1, ft)
		if !ok {
			t.Fatalf("at(1, %v) not found", ft)
		}
		got, ok := h.tickAt(1, at)
		if !ok || math.Abs(got-ft) > 1e-6 {
			t.Errorf("tickAt(%v) = %v, %v, want %v", at, got, ok, ft)
		}
	}
	for _, at := range []time.Duration{0, 49 * time.Millisecond, time.Hour} {
		if got, ok := h.tickAt(1, at); ok {
			t.Errorf("tickAt(%v) = %v, want outside the history", at, got)
		}
	}
	// Every tick was observed 1 ms after base plus its server time, so server time zero
	// is base+1ms exactly.
	for _, wall := range []time.Duration{0, time.Millisecond, 730 * time.Millisecond} {
		if now, ok := h.serverNow(base.Add(wall)); !ok || now != wall-time.Millisecond {
			t.Errorf("serverNow(base+%v) = %v, %v, want %v", wall, now, ok, wall-time.Millisecond)
		}
	}
	if _, ok := newHistory(time.Second).serverNow(base); ok {
		t.Error("serverNow before any tick = ok, want false")
	}
}

// TestHistoryKeepsRoomsApart: two rooms tick on their own, with tick numbers that
// collide; each player's pose and tick times come from its own room, and the tick
// durations can be had for one room or all.
func TestHistoryKeepsRoomsApart(t *testing.T) {
	h := newHistory(time.Second)
	base := time.Now()
	for tick := uint32(1); tick <= 10; tick++ {
		now := time.Duration(tick) * 50 * time.Millisecond
		h.record(server.TickRecord{Room: "default", Now: now, Duration: time.Millisecond,
			Outcome: world.Outcome{Tick: tick, IDs: []uint32{1}, Poses: []netcode.Pose{{X: float64(tick)}}}}, base.Add(now))
		// Room b opened 20 ms later: its tick k runs at k*50ms+20ms, its tank stands at y 5.
		h.record(server.TickRecord{Room: "b", Now: now + 20*time.Millisecond, Duration: 2 * time.Millisecond,
			Outcome: world.Outcome{Tick: tick, IDs: []uint32{2}, Poses: []netcode.Pose{{Y: 5}}}}, base.Add(now+20*time.Millisecond))
	}
	if p, at, ok := h.at(1, 4); !ok || p.X != 4 || at != 200*time.Millisecond {
		t.Errorf("player 1 at tick 4: %v %v %v, want x 4 at 200ms (its room's tick)", p, at, ok)
	}
	if p, at, ok := h.at(2, 4); !ok || p.Y != 5 || p.X != 0 || at != 220*time.Millisecond {
		t.Errorf("player 2 at tick 4: %v %v %v, want y 5 at 220ms (room b's tick)", p, at, ok)
	}
	if ft, ok := h.tickAt(2, 220*time.Millisecond); !ok || ft != 4 {
		t.Errorf("room b's tick at 220ms = %v %v, want 4", ft, ok)
	}
	if ft, ok := h.tickAt(1, 225*time.Millisecond); !ok || ft != 4.5 {
		t.Errorf("the default room's tick at 225ms = %v %v, want 4.5", ft, ok)
	}
	if all, b := h.tickDurations(""), h.tickDurations("b"); len(all) != 20 || len(b) != 10 || b[0] != 2*time.Millisecond {
		t.Errorf("tick durations: %d in all, %d in b (first %v); want 20, 10 of 2ms", len(all), len(b), b)
	}
}
