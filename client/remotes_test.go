package client

import (
	"testing"
	"time"

	"tanknet/netcode"
	"tanknet/wire"
)

func stateAt(tick uint32, x float64) netcode.State {
	return netcode.State{Tick: tick, Pose: netcode.Pose{X: x, Y: 10}}
}

func TestTimeline_TheRosterNamesAndRemovesTanks(t *testing.T) {
	tl := newTimeline(netcode.DefaultInterpConfig())
	tl.push(0, 2, stateAt(1, 5), wire.Combat{})
	if rm := tl.tanks[2]; rm == nil || rm.Name != "" || tl.known(2) {
		t.Fatalf("a tank before the roster: %+v, known %v; want it drawn, unnamed", rm, tl.known(2))
	}
	tl.roster(wire.Roster{Joined: []wire.Player{{ID: 2, Name: "ann"}, {ID: 3, Name: "bob"}}})
	if tl.tanks[2].Name != "ann" || !tl.known(3) {
		t.Errorf("after the roster: name %q, 3 known %v", tl.tanks[2].Name, tl.known(3))
	}
	tl.push(0, 3, stateAt(1, 9), wire.Combat{})
	if tl.tanks[3].Name != "bob" {
		t.Errorf("a tank the roster named arrives as %q", tl.tanks[3].Name)
	}
	tl.roster(wire.Roster{Left: []wire.Departure{{ID: 2}}})
	if tl.tanks[2] != nil || tl.known(2) || len(tl.departed) != 1 {
		t.Errorf("after 2 left: tank %v, known %v, %d departed; want it gone, its counters kept", tl.tanks[2], tl.known(2), len(tl.departed))
	}
}

// TestTimeline_ATankBackFromAGapStartsAfresh: a tank whose states skip reenterGap ticks left
// our view and came back: it is drawn anew, not slid from where it was.
func TestTimeline_ATankBackFromAGapStartsAfresh(t *testing.T) {
	tl := newTimeline(netcode.DefaultInterpConfig())
	for tick := uint32(1); tick <= 3; tick++ {
		if tl.push(time.Duration(tick)*netcode.StepInterval, 2, stateAt(tick, float64(tick)), wire.Combat{}) {
			t.Fatalf("tick %d counted as a return", tick)
		}
	}
	if tl.push(time.Second, 2, stateAt(3+reenterGap-1, 40), wire.Combat{}) {
		t.Error("a gap shorter than reenterGap counted as a return")
	}
	if !tl.push(2*time.Second, 2, stateAt(3+2*reenterGap, 80), wire.Combat{}) {
		t.Fatal("a gap of reenterGap ticks was not a return")
	}
	if n := tl.tanks[2].Interp.Len(); n != 1 || len(tl.departed) != 1 {
		t.Errorf("after the return: %d states buffered, %d departed; want 1 and 1", n, len(tl.departed))
	}
}

func TestTimeline_LeftViewForgetsUnlessANewerStateCame(t *testing.T) {
	tl := newTimeline(netcode.DefaultInterpConfig())
	tl.push(0, 2, stateAt(5, 5), wire.Combat{})
	if tl.leftView(2, 5) || tl.tanks[2] == nil {
		t.Error("left view at tick 5 forgot a tank whose state of tick 5 came")
	}
	if tl.leftView(3, 6) {
		t.Error("a tank never seen was forgotten")
	}
	if !tl.leftView(2, 6) || tl.tanks[2] != nil {
		t.Error("left view at tick 6 kept a tank whose newest state is of tick 5")
	}
}

func TestTimeline_SampleDrawsAndForgetsTheSilent(t *testing.T) {
	tl := newTimeline(netcode.DefaultInterpConfig())
	tl.push(0, 2, stateAt(1, 5), wire.Combat{})
	tl.push(time.Second, 3, stateAt(21, 7), wire.Combat{})
	if n := tl.sample(forgetAfter); n != 0 {
		t.Fatalf("forgot %d at exactly forgetAfter", n)
	}
	if p := tl.tanks[3].Pose; p.X != 7 {
		t.Errorf("tank 3 drawn at %v, want its only state's x 7", p)
	}
	if n := tl.sample(forgetAfter + time.Millisecond); n != 1 || tl.tanks[2] != nil || tl.tanks[3] == nil {
		t.Errorf("past forgetAfter: forgot %d; want only the tank silent since 0", n)
	}
}

// TestTimeline_TargetsAreLiveTanksAsDrawn: a wreck is drawn but is no target, and a Fire's
// views list every tank drawn, in id order.
func TestTimeline_TargetsAreLiveTanksAsDrawn(t *testing.T) {
	tl := newTimeline(netcode.DefaultInterpConfig())
	for tick := uint32(1); tick <= 3; tick++ {
		at := time.Duration(tick) * netcode.StepInterval
		tl.push(at, 4, stateAt(tick, 20), wire.Combat{})
		tl.push(at, 2, stateAt(tick, 10), wire.Combat{Destroyed: true})
	}
	tl.sample(time.Second)
	if got := tl.targets(nil); len(got) != 1 || got[0].ID != 4 || got[0].Pose != tl.tanks[4].Pose {
		t.Errorf("targets = %+v, want only tank 4 where it is drawn", got)
	}
	views, targets := tl.drawn(nil, nil)
	if len(views) != 2 || views[0].ID != 2 || views[1].ID != 4 || len(targets) != 1 || targets[0].ID != 4 {
		t.Errorf("drawn = %+v, %+v; want views of 2 and 4, the target 4", views, targets)
	}
}

// TestTimeline_ReachesOnlyFreshTanks: contact answers tanks whose newest state is at most
// contactFresh ticks older than the newest snapshot, taken on to where our prediction runs.
func TestTimeline_ReachesOnlyFreshTanks(t *testing.T) {
	arena := netcode.DefaultArena()
	rules := netcode.DefaultRules()
	tl := newTimeline(netcode.DefaultInterpConfig())
	tl.push(0, 2, stateAt(10, 5), wire.Combat{})
	tl.push(0, 3, stateAt(10-contactFresh-1, 9), wire.Combat{})
	got := tl.reaches(&arena, rules, 2, 10)
	if len(got) != 1 || got[0] != netcode.Stay(netcode.Pose{X: 5, Y: 10}) {
		t.Errorf("reaches = %+v, want tank 2 staying where it is (one state)", got)
	}
	if got := tl.reaches(&arena, rules, 1000, 10); len(got) != 0 {
		t.Errorf("reaches with our prediction far ahead of the rewind window = %+v, want none", got)
	}
}

// TestTimeline_ARespawnIsDrawnWhereItCameBack: a tank that comes back from being destroyed
// is drawn at its spawn point as soon as the render time leaves its last state before, even a
// spawn point close by, which a slide would cross; and so is one whose destroyed states never
// came (its death count grew). A tank that drives the same distance is slid.
func TestTimeline_ARespawnIsDrawnWhereItCameBack(t *testing.T) {
	dead := wire.Combat{Destroyed: true, Deaths: 1}
	back := wire.Combat{Health: 4, Deaths: 1}
	tests := []struct {
		name          string
		before, after wire.Combat
		wantX         float64
		wantHeld      bool
	}{
		{"respawn", dead, back, 7, true},
		{"respawn whose death we missed", wire.Combat{Health: 4}, back, 7, true},
		{"driving", back, back, 6, false},
		{"destroyed", back, dead, 6, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl := newTimeline(netcode.DefaultInterpConfig())
			step := netcode.StepInterval
			tl.push(0, 2, stateAt(1, 5), tt.before)
			tl.push(step, 2, stateAt(2, 7), tt.after)
			tl.sample(tl.interp.Delay + step/2) // renders halfway between the two states' arrivals
			rm := tl.tanks[2]
			if rm.Pose.X != tt.wantX || rm.Interp.View().Held() != tt.wantHeld {
				t.Errorf("drawn at x %v (view %v), want %v (held %v)", rm.Pose.X, rm.Interp.View(), tt.wantX, tt.wantHeld)
			}
		})
	}
}
