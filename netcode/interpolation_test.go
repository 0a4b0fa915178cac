package netcode

import (
	"math"
	"testing"
	"time"
)

// Scenarios of specs/remote-snapshot-interpolation.md (its decisions are its scenarios), on
// the receive timeline with the spec's 100 ms delay.

const ms = time.Millisecond

func receiveInterp(t testing.TB) *Interpolator {
	t.Helper()
	return NewInterpolator(DefaultInterpConfig())
}

func st(tick uint32, x, y, h float64) State {
	return State{Tick: tick, Pose: Pose{x, y, h}}
}

func TestRemote_InterpolatesAtFixedDelay(t *testing.T) {
	ip := receiveInterp(t)
	ip.Push(0, st(1, 0, 0, 0))
	ip.Push(50*ms, st(2, 1, 2, 0.4))
	ip.Push(100*ms, st(3, 2, 2, 0.4))
	tests := []struct {
		now      time.Duration
		want     Pose
		wantTick float64
	}{
		{100 * ms, Pose{0, 0, 0}, 1},       // renders at 0: the first sample
		{125 * ms, Pose{0.5, 1, 0.2}, 1.5}, // halfway between the first two
		{160 * ms, Pose{1.2, 2, 0.4}, 2.2}, // a fifth into the second pair
		{199 * ms, Pose{1.98, 2, 0.4}, 2.98},
	}
	for _, tt := range tests {
		got, ok := ip.Sample(tt.now)
		if !ok || !nearPose(got, tt.want, 1e-12) {
			t.Errorf("Sample(%v) = %v, %v, want %v, true", tt.now, got, ok, tt.want)
		}
		if rt := ip.RenderTick(); !near(rt, tt.wantTick, 1e-12) {
			t.Errorf("Sample(%v): RenderTick() = %v, want %v", tt.now, rt, tt.wantTick)
		}
	}
	if got := ip.Delay(); got != 100*ms {
		t.Errorf("Delay() = %v, want 100ms", got)
	}
	if c := ip.Counters(); c.Holds != 0 || c.Frames != 4 || c.Samples != 3 {
		t.Errorf("Counters() = %+v, want 4 frames, 3 samples, no hold", c)
	}
}

func TestRemote_BufferOrderedAndCapped(t *testing.T) {
	cfg := DefaultInterpConfig()
	cfg.BufferCap = 4
	ip := NewInterpolator(cfg)
	for i := range 6 {
		ip.Push(time.Duration(i)*50*ms, st(uint32(i+1), float64(i), 0, 0))
	}
	if ip.Len() != 4 {
		t.Fatalf("Len() = %d, want the cap 4", ip.Len())
	}
	for i, s := range ip.buf {
		if want := uint32(i + 3); s.tick != want {
			t.Errorf("buffer[%d] tick = %d, want %d (oldest dropped, order kept)", i, s.tick, want)
		}
	}
	if c := ip.Counters(); c.Overflows != 2 || c.Depth != 4 {
		t.Errorf("Counters() = %+v, want 2 overflows, depth 4", c)
	}
}

func TestRemote_RejectsStaleAndDuplicate(t *testing.T) {
	ip := receiveInterp(t)
	ip.Push(0, st(5, 0, 0, 0))
	ip.Push(50*ms, st(7, 1, 0, 0))
	for _, s := range []State{st(7, 9, 9, 0), st(6, 9, 9, 0), st(1, 9, 9, 0)} {
		if ip.Push(60*ms, s) {
			t.Errorf("Push(%+v) = true, want false (newest tick 7)", s)
		}
	}
	if ip.Len() != 2 {
		t.Errorf("Len() = %d, want 2: rejected states must not reach the buffer", ip.Len())
	}
	if n, ok := ip.Newest(); !ok || n != st(7, 1, 0, 0) {
		t.Errorf("Newest() = %+v, %v, want tick 7 at x=1", n, ok)
	}
	if c := ip.Counters(); c.StaleRejects != 3 || c.Samples != 2 {
		t.Errorf("Counters() = %+v, want 3 stale rejects, 2 samples", c)
	}
}

func TestRemote_ClampToNewest(t *testing.T) {
	t.Run("single sample", func(t *testing.T) {
		ip := receiveInterp(t)
		if got, ok := ip.Sample(0); ok || got != (Pose{}) {
			t.Errorf("Sample on empty = %v, %v, want zero pose, false", got, ok)
		}
		ip.Push(0, st(1, 3, 4, 1))
		if got, ok := ip.Sample(500 * ms); ok || got != (Pose{3, 4, 1}) {
			t.Errorf("Sample(500ms) = %v, %v, want the only sample, false", got, ok)
		}
	})
	t.Run("render time past newest", func(t *testing.T) {
		ip := receiveInterp(t)
		ip.Push(0, st(1, 0, 0, 0))
		ip.Push(50*ms, st(2, 1, 0, 0)) // moving +x at 20 units/s
		for _, now := range []time.Duration{150 * ms, 200 * ms, 900 * ms} {
			if got, ok := ip.Sample(now); ok || got != (Pose{1, 0, 0}) {
				t.Errorf("Sample(%v) = %v, %v, want the newest (1, 0, 0) held, not extrapolated", now, got, ok)
			}
		}
		if c := ip.Counters(); c.Holds != 3 {
			t.Errorf("Counters().Holds = %d, want 3", c.Holds)
		}
		// A new sample brackets again from the held one.
		ip.Push(950*ms, st(3, 2, 0, 0))
		want := Pose{1 + 850.0/900, 0, 0} // rendering 900 ms: 850 of the 900 ms between them
		if got, ok := ip.Sample(1000 * ms); !ok || !nearPose(got, want, 1e-12) {
			t.Errorf("Sample(1000ms) after a new state = %v, %v, want %v, true", got, ok, want)
		}
	})
	t.Run("render time before oldest", func(t *testing.T) {
		ip := receiveInterp(t)
		ip.Push(100*ms, st(1, 3, 4, 0.5)) // not the zero pose an empty buffer gives
		ip.Push(150*ms, st(2, 5, 4, 0.5))
		if got, ok := ip.Sample(120 * ms); ok || got != (Pose{X: 3, Y: 4, Heading: 0.5}) {
			t.Errorf("Sample(120ms) = %v, %v, want the oldest (3, 4, 0.5), false", got, ok)
		}
	})
}

func TestRemote_TrimsOldSamples(t *testing.T) {
	ip := receiveInterp(t)
	for i := range 10 {
		ip.Push(time.Duration(i)*50*ms, st(uint32(i+1), float64(i), 0, 0))
	}
	ip.Sample(360 * ms) // renders at 260 ms: between samples 5 (250 ms) and 6 (300 ms)
	if ip.Len() != 5 || ip.buf[0].tick != 6 {
		t.Errorf("Len() = %d, oldest tick %d, want 5 samples from tick 6", ip.Len(), ip.buf[0].tick)
	}
}

func TestRemote_RotationShortestArc(t *testing.T) {
	ip := receiveInterp(t)
	ip.Push(0, st(1, 0, 0, 3))
	ip.Push(50*ms, st(2, 0, 0, -3))
	got, _ := ip.Sample(125 * ms)
	if math.Abs(math.Abs(got.Heading)-math.Pi) > 1e-12 {
		t.Errorf("Sample halfway from 3 to -3 rad = %v, want +-pi (the short way)", got)
	}
}

// A respawn, pushed with PushTeleport, is shown at once from the moment the render time
// leaves the state before it, not slid to; the states after it blend as usual.
func TestRemote_TeleportShowsLaterSample(t *testing.T) {
	ip := receiveInterp(t)
	ip.Push(0, st(1, 1, 1, 0))
	ip.PushTeleport(50*ms, st(2, 1.5, 1, 0)) // a respawn close to where the tank died
	ip.Push(100*ms, st(3, 2, 1, 0))
	got, ok := ip.Sample(110 * ms)
	if !ok || got != (Pose{1.5, 1, 0}) || ip.View() != (View{From: 2, To: 2}) {
		t.Errorf("Sample across a teleport = %v, %v (view %v), want (1.5, 1, 0), true (view 2->2)", got, ok, ip.View())
	}
	if ip.Counters().Teleports != 1 {
		t.Errorf("Counters().Teleports = %d, want 1", ip.Counters().Teleports)
	}
	if got, ok := ip.Sample(175 * ms); !ok || got != (Pose{1.75, 1, 0}) {
		t.Errorf("Sample after the teleport = %v, %v, want (1.75, 1, 0), true: a blend of ticks 2 and 3", got, ok)
	}
}

// The spec blends any bracketing pair: a long jump between two states a tick apart that
// was not pushed as a teleport is slid across like a short one.
func TestRemote_LongJumpIsBlended(t *testing.T) {
	ip := receiveInterp(t)
	ip.Push(0, st(1, 0, 0, 0))
	ip.Push(50*ms, st(2, 10, -20, 0))
	got, ok := ip.Sample(125 * ms)
	if !ok || got != (Pose{5, -10, 0}) {
		t.Errorf("Sample halfway across a 22-unit jump = %v, %v, want (5, -10, 0), true", got, ok)
	}
	if ip.Counters().Teleports != 0 {
		t.Errorf("Counters().Teleports = %d, want 0", ip.Counters().Teleports)
	}
}

// Across a gap of lost snapshots wider than MaxViewSpan the older state is held, not blended
// with the newer one along a chord the tank never drove; a gap within it is blended.
func TestRemote_HoldsAcrossAWideGap(t *testing.T) {
	ip := receiveInterp(t)
	ip.Push(0, st(1, 1, 1, 0))
	ip.Push(50*ms*(MaxViewSpan+1), st(MaxViewSpan+2, 2, 1, 0)) // MaxViewSpan snapshots lost
	got, ok := ip.Sample(150 * ms)
	if ok || got != (Pose{1, 1, 0}) || !ip.View().Held() || !ip.View().Valid() {
		t.Errorf("Sample across a wide gap = %v, %v (view %v), want the older state held", got, ok, ip.View())
	}
	ip = receiveInterp(t)
	ip.Push(0, st(1, 1, 1, 0))
	ip.Push(50*ms*MaxViewSpan, st(MaxViewSpan+1, 2, 1, 0))
	if _, ok := ip.Sample(150 * ms); !ok || ip.View().Held() || !ip.View().Valid() {
		t.Errorf("Sample across a gap of MaxViewSpan: view %v, %v, want a valid blend", ip.View(), ok)
	}
}

func TestRemote_ReceiveTimesNeverRunBackwards(t *testing.T) {
	ip := receiveInterp(t)
	ip.Push(100*ms, st(1, 0, 0, 0))
	ip.Push(90*ms, st(2, 1, 0, 0)) // a caller clock hiccup
	ip.Push(150*ms, st(3, 2, 0, 0))
	if got, ok := ip.Sample(225 * ms); !ok || !nearPose(got, Pose{1.5, 0, 0}, 1e-12) {
		t.Errorf("Sample(225ms) = %v, %v, want (1.5, 0, 0), true", got, ok)
	}
}

func TestRemote_Disabled(t *testing.T) {
	cfg := DefaultInterpConfig()
	cfg.Disabled = true
	ip := NewInterpolator(cfg)
	ip.Push(0, st(1, 0, 0, 0))
	ip.Push(50*ms, st(2, 1, 0, 0))
	if got, ok := ip.Sample(60 * ms); ok || got != (Pose{1, 0, 0}) {
		t.Errorf("Sample with interpolation off = %v, %v, want the newest, false", got, ok)
	}
	if ip.Counters().Holds != 0 {
		t.Errorf("Counters().Holds = %d, want 0: showing the newest is the setting, not a hold", ip.Counters().Holds)
	}
}

// An InterpConfig that gives only what the receive timeline uses, as the spec describes it
// (a delay), interpolates with the default buffer.
func TestRemote_ReceiveTimelineNeedsOnlyItsDelay(t *testing.T) {
	ip := NewInterpolator(InterpConfig{Delay: 100 * time.Millisecond})
	ip.Push(0, st(1, 0, 0, 0))
	ip.Push(50*ms, st(2, 1, 0, 0))
	if got, ok := ip.Sample(125 * ms); !ok || got != (Pose{0.5, 0, 0}) {
		t.Errorf("Sample halfway = %v, %v, want (0.5, 0, 0), true", got, ok)
	}
	for tick := uint32(3); tick < 3+2*defaultBufferCap; tick++ {
		ip.Push(time.Duration(tick)*50*ms, st(tick, float64(tick), 0, 0))
	}
	if ip.Len() != defaultBufferCap {
		t.Errorf("Len() = %d after %d pushes, want the default cap %d", ip.Len(), 2+2*defaultBufferCap, defaultBufferCap)
	}
}

func TestInterpConfigValidate(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(*InterpConfig)
		wantErr bool
	}{
		{"default", func(*InterpConfig) {}, false},
		{"server timeline", func(c *InterpConfig) { c.Timeline = ServerTimeline }, false},
		{"unknown timeline", func(c *InterpConfig) { c.Timeline = 7 }, true},
		{"negative delay", func(c *InterpConfig) { c.Delay = -1 }, true},
		{"tiny buffer", func(c *InterpConfig) { c.BufferCap = 1 }, true},
		{"negative buffer", func(c *InterpConfig) { c.BufferCap = -2 }, true},
		{"zero buffer: the default", func(c *InterpConfig) { c.BufferCap = 0 }, false},
		{"max below min delay", func(c *InterpConfig) { c.Timeline, c.MaxDelay = ServerTimeline, c.MinDelay-1 }, true},
		{"negative min delay", func(c *InterpConfig) { c.Timeline, c.MinDelay = ServerTimeline, -1 }, true},
		{"NaN cover", func(c *InterpConfig) { c.Timeline, c.Cover = ServerTimeline, math.NaN() }, true},
		{"zero cover", func(c *InterpConfig) { c.Timeline, c.Cover = ServerTimeline, 0 }, true},
		{"cover above 1", func(c *InterpConfig) { c.Timeline, c.Cover = ServerTimeline, 1.01 }, true},
		{"rate of one", func(c *InterpConfig) { c.Timeline, c.MaxRate = ServerTimeline, 1 }, true},
		{"receive timeline: the server timeline's settings unused", func(c *InterpConfig) { c.MinDelay, c.MaxDelay, c.Cover, c.MaxRate = -1, -2, 0, 1 }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := DefaultInterpConfig()
			tt.edit(&c)
			if err := c.Validate(); (err != nil) != tt.wantErr {
				t.Errorf("Validate(%+v) = %v, want error %v", c, err, tt.wantErr)
			}
		})
	}
	defer func() {
		if recover() == nil {
			t.Error("NewInterpolator(InterpConfig{BufferCap: 1}) did not panic")
		}
	}()
	NewInterpolator(InterpConfig{BufferCap: 1})
}

func TestTimelineString(t *testing.T) {
	for tl, want := range map[Timeline]string{ReceiveTimeline: "receive", ServerTimeline: "adaptive", 9: "Timeline(9)"} {
		if got := tl.String(); got != want {
			t.Errorf("Timeline(%d).String() = %q, want %q", int(tl), got, want)
		}
	}
}

func TestParseTimeline(t *testing.T) {
	for in, want := range map[string]Timeline{"receive": ReceiveTimeline, "adaptive": ServerTimeline, "server": ServerTimeline} {
		if got, err := ParseTimeline(in); err != nil || got != want {
			t.Errorf("ParseTimeline(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseTimeline("fixed"); err == nil {
		t.Error(`ParseTimeline("fixed") = nil error, want one`)
	}
}

// Previous is the state pushed before the newest, whatever Sample has trimmed: a hold past
// the newest state (snapshots late) leaves one state buffered, and a push target still
// needs the one before it (PROTOCOL.md §7c step 1).
func TestRemote_PreviousOutlivesAHold(t *testing.T) {
	ip := receiveInterp(t)
	if _, ok := ip.Previous(); ok {
		t.Fatal("Previous on an empty interpolator reports a state")
	}
	ip.Push(0, st(10, 1, 0, 0))
	if _, ok := ip.Previous(); ok {
		t.Fatal("Previous with one state pushed reports a state")
	}
	ip.Push(50*ms, st(11, 2, 0, 0))
	for _, now := range []time.Duration{120 * ms, 260 * ms, 900 * ms} { // bracketing, then held
		ip.Sample(now)
		if prev, ok := ip.Previous(); !ok || prev != st(10, 1, 0, 0) {
			t.Fatalf("Previous after Sample(%v) = %v, %v; want tick 10's state", now, prev, ok)
		}
	}
	if ip.Push(950*ms, st(11, 9, 9, 0)) {
		t.Fatal("a stale push was taken")
	}
	ip.Push(950*ms, st(12, 3, 0, 0))
	if prev, ok := ip.Previous(); !ok || prev != st(11, 2, 0, 0) {
		t.Errorf("Previous after tick 12 = %v, %v; want tick 11's state", prev, ok)
	}
}
