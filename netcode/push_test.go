package netcode

import (
	"math"
	"testing"
	"time"
)

func TestContactPush(t *testing.T) {
	a := DefaultArena()
	p := Pose{X: 20, Y: 3}
	tests := []struct {
		name   string
		others []Pose
		want   Push
	}{
		{"nobody near", []Pose{{X: 25, Y: 3}}, Push{}},
		{"just touching", []Pose{{X: 21.2, Y: 3}}, Push{}},
		{"overlap 0.2 to the right: 0.1 to the left", []Pose{{X: 21, Y: 3}}, Push{X: -102}}, // 0.1 * 1024 = 102.4, toward zero
		{"overlap 0.2 above", []Pose{{X: 20, Y: 4}}, Push{Y: -102}},
		{"two, each side: they cancel", []Pose{{X: 21, Y: 3}, {X: 19, Y: 3}}, Push{}},
		{"the same spot: along -x", []Pose{p}, Push{X: -256}},                          // half of 1.2 is 0.6, shortened to 0.25 = 256
		{"deep: shortened to a step of speed", []Pose{{X: 20.1, Y: 3}}, Push{X: -256}}, // 0.55 wanted
	}
	for _, tt := range tests {
		var reach []Reach
		for _, q := range tt.others {
			reach = append(reach, Stay(q))
		}
		if got := ContactPush(&a, p, reach, StepInterval); got != tt.want {
			t.Errorf("%s: ContactPush = %+v, want %+v", tt.name, got, tt.want)
		}
	}
	// Never longer than MaxPush, whatever the rounding.
	for i := range 100 {
		q := Pose{X: 20 + math.Cos(float64(i))*0.3, Y: 3 + math.Sin(float64(i))*0.3}
		if got := ContactPush(&a, p, []Reach{Stay(q), Stay(Pose{X: 20.2, Y: 3.1})}, StepInterval); got.Length() > MaxPush(&a, StepInterval) {
			t.Fatalf("push %+v is %v long, more than %v", got, got.Length(), MaxPush(&a, StepInterval))
		}
	}
}

func TestApplyPush(t *testing.T) {
	a := DefaultArena()
	p := a.Snap(Pose{X: 20, Y: 3, Heading: 1})
	if got := ApplyPush(&a, p, Push{}); got != p {
		t.Errorf("the zero push moved %v to %v", p, got)
	}
	got := ApplyPush(&a, p, Push{X: 100, Y: -50})
	if want := a.Snap(Pose{X: 20 + 100.0/1024, Y: 3 - 50.0/1024, Heading: 1}); got != want {
		t.Errorf("ApplyPush = %v, want %v (the heading kept)", got, want)
	}
	// Into a wall: contained like any movement.
	edge := a.Snap(Pose{X: a.TankRadius, Y: 10})
	if got := ApplyPush(&a, edge, Push{X: -200}); got.X != edge.X {
		t.Errorf("a push into the west wall left the tank at x=%v, want %v", got.X, edge.X)
	}
	// Into an obstacle: out of it again.
	block := a.Obstacles[0]
	beside := a.Snap(Pose{X: block.MinX - a.TankRadius, Y: (block.MinY + block.MaxY) / 2})
	if got := ApplyPush(&a, beside, Push{X: 256}); got.X > block.MinX-a.TankRadius+GridUnit {
		t.Errorf("a push into an obstacle left the tank at x=%v, inside it", got.X)
	}
}

func TestPendingInput_ApplyIsReplay(t *testing.T) {
	a := DefaultArena()
	steps := []PendingInput{
		{Tick: 1, Input: Input{Throttle: 1}, Duration: StepInterval, Push: Push{X: -30}},
		{Tick: 2, Input: Input{Turn: 1, Throttle: 0.5}, Duration: StepInterval},
		{Tick: 3, Input: Input{Throttle: -1}, Duration: 70 * time.Millisecond, Push: Push{Y: 40}},
	}
	p := a.Snap(Pose{X: 10, Y: 10})
	want := p
	for _, s := range steps {
		want = ApplyPush(&a, Simulate(&a, want, s.Input, s.Duration), s.Push)
	}
	if got := Replay(&a, p, steps); got != want {
		t.Errorf("Replay = %v, want each input's movement then its push: %v", got, want)
	}
}

func TestPushTarget(t *testing.T) {
	a := DefaultArena()
	prev, cur := State{Tick: 9, Pose: Pose{X: 10, Y: 10}}, State{Tick: 10, Pose: Pose{X: 10.25, Y: 10}}
	tests := []struct {
		name    string
		prev    State
		hasPrev bool
		lead    uint32
		want    Pose
		ok      bool
	}{
		{"carried on for the lead", prev, true, 4, Pose{X: 11.25, Y: 10}, true},
		{"at most PushHorizon ticks", prev, true, 15, Pose{X: 12.75, Y: 10}, true},
		{"no state before", State{}, false, 4, cur.Pose, true},
		{"the state before is not of the tick before", State{Tick: 8, Pose: Pose{X: 10, Y: 10}}, true, 4, cur.Pose, true},
		{"a jump (a respawn) is not carried on", State{Tick: 9, Pose: Pose{X: 30, Y: 3}}, true, 4, cur.Pose, true},
		{"too old for the server's window", prev, true, 18, Pose{}, false},
	}
	for _, tt := range tests {
		got, ok := PushTarget(&a, tt.prev, cur, tt.hasPrev, tt.lead, 20)
		if ok != tt.ok || math.Abs(got.To.X-tt.want.X) > 1e-9 || got.To.Y != tt.want.Y || (ok && got.From != cur.Pose) {
			t.Errorf("%s: PushTarget = %v, %v; want %v, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
	// The server's allowance covers every target, wherever it meets us: ReachDepth is at
	// least the overlap with it.
	for _, me := range []Pose{{X: 12, Y: 10.5}, {X: 11, Y: 10.2}, {X: 13.5, Y: 10}, {X: 10.5, Y: 9.6}} {
		for lead := range uint32(PushHorizon + 1) {
			at, _ := PushTarget(&a, prev, cur, true, lead, 40)
			if d, o := ReachDepth(&a, me, prev.Pose, cur.Pose, true), Overlap(&a, me, at.meets(&a, me)); d+1e-12 < o {
				t.Errorf("me %v, lead %d: ReachDepth %v below the overlap with the target, %v", me, lead, d, o)
			}
		}
	}
}

// TestContactPush_ATankDrivingAtUsStopsWhereItMeetsUs: a tank seen driving straight at ours,
// carried on for a long lead, would come out on our far side and turn our push toward it;
// it is taken to stop where it overlaps us by MeetDepth, so our push is away from it.
// Driving away or passing by, it is taken where it was carried to; already deeper in us
// than MeetDepth, where it was seen.
func TestContactPush_ATankDrivingAtUsStopsWhereItMeetsUs(t *testing.T) {
	a := DefaultArena()
	me := Pose{X: 20, Y: 3}
	// Seen 2 units to our left, driving right at a step a tick: 10 ticks on, it is past us.
	at, _ := PushTarget(&a, State{Tick: 9, Pose: Pose{X: 17.75, Y: 3}}, State{Tick: 10, Pose: Pose{X: 18, Y: 3}}, true, 10, 20)
	if at.To.X <= me.X {
		t.Fatalf("set-up: carried on to %v, want past us at x=%v", at.To, me.X)
	}
	if got := at.meets(&a, me); math.Abs(Overlap(&a, me, got)-MeetDepth(&a)) > 1e-9 || got.X >= me.X {
		t.Errorf("meets = %v: overlap %v, want %v on our left", got, Overlap(&a, me, got), MeetDepth(&a))
	}
	if push := ContactPush(&a, me, []Reach{at}, StepInterval); push.X <= 0 || push.Y != 0 {
		t.Errorf("push %+v, want away from the tank coming from the left (+x)", push)
	}
	for _, tt := range []struct {
		name string
		r    Reach
		want Pose
	}{
		{"driving away", Reach{From: Pose{X: 19, Y: 3}, To: Pose{X: 17, Y: 3}}, Pose{X: 17, Y: 3}},
		{"passing by", Reach{From: Pose{X: 17, Y: 6}, To: Pose{X: 23, Y: 6}}, Pose{X: 23, Y: 6}},
		{"stopping short", Reach{From: Pose{X: 17, Y: 3}, To: Pose{X: 18.5, Y: 3}}, Pose{X: 18.5, Y: 3}},
		{"already deeper than MeetDepth", Reach{From: Pose{X: 19.5, Y: 3}, To: Pose{X: 21, Y: 3}}, Pose{X: 19.5, Y: 3}},
		{"standing", Stay(Pose{X: 19.3, Y: 3}), Pose{X: 19.3, Y: 3}},
	} {
		if got := tt.r.meets(&a, me); got != tt.want {
			t.Errorf("%s: meets = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestParseContactMode(t *testing.T) {
	for in, want := range map[string]ContactMode{"predicted": ContactPredicted, "true": ContactPredicted,
		"server": ContactServer, "off": ContactOff, "false": ContactOff} {
		if got, err := ParseContactMode(in); err != nil || got != want {
			t.Errorf("ParseContactMode(%q) = %v, %v; want %v", in, got, err, want)
		}
		if want.String() != in && in != "true" && in != "false" {
			t.Errorf("%v.String() = %q, want %q", want, want.String(), in)
		}
	}
	if _, err := ParseContactMode("sometimes"); err == nil {
		t.Error("ParseContactMode(sometimes) succeeded")
	}
}

func TestResolveOverlaps_PastWhatIsAllowedAllTheWayApart(t *testing.T) {
	a := DefaultArena()
	r := a.TankRadius
	poses := []Pose{{X: 20, Y: 3}, {X: 20.5, Y: 3}, {X: 30, Y: 3}, {X: 31, Y: 3}} // overlaps 0.7 and 0.2
	if n := ResolveOverlaps(&a, poses, r); n != 1 {
		t.Fatalf("ResolveOverlaps moved %d pairs, want the one overlapping deeper than a radius", n)
	}
	if d := poses[0].Distance(poses[1]); math.Abs(d-2*r) > 2*GridUnit {
		t.Errorf("the deep pair is %v apart, want %v: just touching, not back to a radius of overlap", d, 2*r)
	}
	if poses[2] != (Pose{X: 30, Y: 3}) || poses[3] != (Pose{X: 31, Y: 3}) {
		t.Errorf("the shallow pair moved: %v %v", poses[2], poses[3])
	}
}
