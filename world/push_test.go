package world

import (
	"testing"

	"tanknet/netcode"
)

// pushWorld returns a world of contact mode with tanks 1 and 2 at a and b, a tick run so the
// history holds their states, and inputs on arrival.
func pushWorld(t *testing.T, mode netcode.ContactMode, a, b netcode.Pose) (*World, *Tank, *Tank) {
	t.Helper()
	cfg := testConfig()
	cfg.Rules.Contact = mode
	cfg.InputOnArrival = true
	w := New(cfg)
	t1, t2 := mustJoin(t, w, 1, &testClient{}), mustJoin(t, w, 2, &testClient{})
	t1.pose, t2.pose = w.cfg.Arena.Snap(a), w.cfg.Arena.Snap(b)
	runTick(w)
	return w, t1, t2
}

// TestPush_TheRulesTheServerEnforces: a push is applied only when contact is predicted, it
// is no longer than a step of top speed, and the tank overlaps another tank's recent state
// at least that much; otherwise the input's movement is applied and the push counts as
// zero, counted by reason. A client that claims a push the rules do not allow gains nothing.
func TestPush_TheRulesTheServerEnforces(t *testing.T) {
	arena := netcode.DefaultArena()
	step := netcode.StepInterval
	grid := func(units float64) int32 { return int32(units * netcode.GridPerUnit) }
	touching := netcode.Pose{X: 20.9, Y: 3} // 0.9 from the other tank: overlaps by 0.3
	apart := netcode.Pose{X: 30, Y: 3}      // far from every tank
	other := netcode.Pose{X: 20, Y: 3}
	tests := []struct {
		name   string
		mode   netcode.ContactMode
		at     netcode.Pose
		push   netcode.Push
		refuse PushRefusal // applied: pushRefusals
	}{
		{"half the overlap, away", netcode.ContactPredicted, touching, netcode.Push{X: grid(0.15)}, pushRefusals},
		{"the whole overlap", netcode.ContactPredicted, touching, netcode.Push{X: grid(0.3)}, PushTooLong},
		{"more than the overlap allows", netcode.ContactPredicted, netcode.Pose{X: 21.1, Y: 3}, netcode.Push{X: grid(0.2)}, PushNoContact},
		{"touching nobody", netcode.ContactPredicted, apart, netcode.Push{Y: grid(0.1)}, PushNoContact},
		{"longer than a step of top speed", netcode.ContactPredicted, netcode.Pose{X: 20.1, Y: 3}, netcode.Push{X: grid(0.26)}, PushTooLong},
		{"contact resolved by the server", netcode.ContactServer, touching, netcode.Push{X: grid(0.1)}, PushNotPredicted},
		{"contact off", netcode.ContactOff, touching, netcode.Push{X: grid(0.1)}, PushNotPredicted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, me, _ := pushWorld(t, tt.mode, tt.at, other)
			start := me.pose
			mustQueue(t, w, me, netcode.PendingInput{Tick: 1, Duration: step, Push: tt.push})
			out := runTick(w)
			applied := netcode.ApplyPush(&arena, start, tt.push)
			if tt.refuse == pushRefusals {
				if me.pose != applied || out.Counts.Pushes != 1 || out.Applied[0].Push != tt.push {
					t.Errorf("pose %v (pushes %d, recorded %+v), want the push applied: %v", me.pose, out.Counts.Pushes, out.Applied[0].Push, applied)
				}
				return
			}
			if me.pose != start || out.Counts.PushesRefused[tt.refuse] != 1 || out.Counts.Pushes != 0 || !out.Applied[0].Push.IsZero() {
				t.Errorf("pose %v, counts %+v, recorded push %+v; want the push refused as %s: pose %v, recorded zero",
					me.pose, out.Counts, out.Applied[0].Push, tt.refuse.Label(), start)
			}
		})
	}
}

// TestPush_AgainstWhereATankWasHeading: a client pushes against where it takes a moving
// tank to be by now (netcode.PushTarget carries its newest state on); the server allows a
// push against anywhere on that way, not only against the states it recorded.
func TestPush_AgainstWhereATankWasHeading(t *testing.T) {
	w, me, mover := pushWorld(t, netcode.ContactPredicted, netcode.Pose{X: 22.5, Y: 3}, netcode.Pose{X: 20, Y: 3})
	for range 2 { // the mover drives toward me for two ticks: 0.25 units a tick
		mustQueue(t, w, mover, netcode.PendingInput{Tick: mover.ack + 1, Input: netcode.Input{Throttle: 1}, Duration: netcode.StepInterval})
		runTick(w)
	}
	prev, _ := w.hist.find(w.tick-1, mover.id)
	cur, _ := w.hist.find(w.tick, mover.id)
	ahead, ok := netcode.PushTarget(&w.cfg.Arena, netcode.State{Tick: w.tick - 1, Pose: prev.pose}, netcode.State{Tick: w.tick, Pose: cur.pose}, true, 6, 20)
	if !ok || netcode.Overlap(&w.cfg.Arena, me.pose, cur.pose) != 0 || netcode.Overlap(&w.cfg.Arena, me.pose, ahead.To) == 0 {
		t.Fatalf("set-up: the mover's state %v must not touch me at %v, its target %v must", cur.pose, me.pose, ahead)
	}
	push := netcode.ContactPush(&w.cfg.Arena, me.pose, []netcode.Reach{ahead}, netcode.StepInterval)
	if push.IsZero() {
		t.Fatal("no push against the target")
	}
	mustQueue(t, w, me, netcode.PendingInput{Tick: 1, Duration: netcode.StepInterval, Push: push})
	if out := runTick(w); out.Counts.Pushes != 1 {
		t.Errorf("counts %+v, want the push applied", out.Counts)
	}
}

// TestSetContact_SwitchesBetweenTicks: a world switched from predicted to server contact
// refuses the next push as not_predicted and pushes the overlapping pair apart itself,
// counting the contact; switched back, it applies the push again and leaves the pair be.
// Each outcome names the mode its tick ran under.
func TestSetContact_SwitchesBetweenTicks(t *testing.T) {
	grid := func(units float64) int32 { return int32(units * netcode.GridPerUnit) }
	step := netcode.StepInterval
	w, me, _ := pushWorld(t, netcode.ContactPredicted, netcode.Pose{X: 20.9, Y: 3}, netcode.Pose{X: 20, Y: 3})
	push := netcode.Push{X: grid(0.15)}

	w.SetContact(netcode.ContactServer)
	mustQueue(t, w, me, netcode.PendingInput{Tick: 1, Duration: step, Push: push})
	out := runTick(w)
	if out.Contact != netcode.ContactServer || out.Counts.PushesRefused[PushNotPredicted] != 1 || out.Counts.Pushes != 0 || out.Counts.Contacts != 1 {
		t.Errorf("after SetContact(server): contact %v, counts %+v; want the push refused as not_predicted and one contact resolved", out.Contact, out.Counts)
	}

	w.SetContact(netcode.ContactPredicted)
	me.pose = w.cfg.Arena.Snap(netcode.Pose{X: 20.9, Y: 3}) // touching again
	runTick(w)                                              // the history holds the pair touching
	mustQueue(t, w, me, netcode.PendingInput{Tick: 2, Duration: step, Push: push})
	out = runTick(w)
	if out.Contact != netcode.ContactPredicted || out.Counts.Pushes != 1 || out.Counts.Contacts != 0 {
		t.Errorf("after SetContact(predicted): contact %v, counts %+v; want the push applied and no contact resolved by the world", out.Contact, out.Counts)
	}
}
