package server

import (
	"tanknet/world"
	"testing"
	"time"

	"tanknet/netcode"
)

// A client that sends 100 inputs and then says Goodbye has all 100 applied: the ones in the
// buffer and the ones that reached the session just before the Goodbye, none lost.
func TestGoodbye_AppliesEveryInputSentBeforeIt(t *testing.T) {
	w := newTestWorld(t, nil)
	d := newDriver(t, w, "leaver")
	_, other := mustJoin(t, w, 0, "stays")
	applied := 0
	d.send(7, 10*time.Millisecond) // a buffer a few ticks deep, as after a jittery link
	for d.next < 100 {
		applied += d.step()
		d.send(1, 10*time.Millisecond)
	}
	d.send(0, 0)
	if d.p.tank.Waiting()+len(d.fp.inputs) == 0 {
		t.Fatal("nothing waiting at the Goodbye: the test proves nothing")
	}
	w.part(d.p.tank.ID(), "goodbye: done")
	for i := 0; i < world.MaxPartingTicks+2 && w.find(d.p.tank.ID()) != nil; i++ {
		applied += d.step()
	}
	if w.find(d.p.tank.ID()) != nil {
		t.Fatalf("player still in the world %d ticks after its Goodbye", world.MaxPartingTicks+2)
	}
	if applied != 100 || d.p.tank.Ack() != 100 {
		t.Errorf("applied %d inputs (ack %d), want all 100 sent before the Goodbye", applied, d.p.tank.Ack())
	}
	if want := netcode.Replay(&w.cfg.Arena, d.spawn, d.all); d.p.tank.Pose() != want {
		t.Errorf("last pose %v, want the client's replay of every input %v", d.p.tank.Pose(), want)
	}
	var told bool
	for _, m := range other.control {
		for _, l := range m.GetRosterUpdate().GetLeft() {
			told = told || l.GetPlayerId() == d.p.tank.ID() && l.GetReason() == "goodbye: done"
		}
	}
	if !told {
		t.Error("the other player was not told of the Goodbye")
	}
}

// A Goodbye with nothing waiting removes the player at once, as before.
func TestGoodbye_NothingWaitingLeavesAtOnce(t *testing.T) {
	w := newTestWorld(t, nil)
	d := newDriver(t, w, "leaver")
	d.send(1, 10*time.Millisecond)
	d.step()
	w.part(d.p.tank.ID(), "goodbye")
	if w.find(d.p.tank.ID()) != nil {
		t.Error("a player with no input waiting stayed after its Goodbye")
	}
}

// Inputs sent faster than real time do not keep a departed tank in the world: after
// world.MaxPartingTicks it goes with whatever the time budget still held back.
func TestGoodbye_BoundedForInputsAheadOfTime(t *testing.T) {
	w := newTestWorld(t, nil)
	d := newDriver(t, w, "hasty")
	d.send(100, 10*time.Millisecond) // 5 s of inputs at once: the budget grants ~0.3 s now
	d.step()
	w.part(d.p.tank.ID(), "goodbye")
	ticks := 0
	for ; ticks < 3*world.MaxPartingTicks && w.find(d.p.tank.ID()) != nil; ticks++ {
		d.step()
	}
	if w.find(d.p.tank.ID()) != nil || ticks > world.MaxPartingTicks {
		t.Errorf("player left after %d ticks (still there: %v), want at most %d", ticks, w.find(d.p.tank.ID()) != nil, world.MaxPartingTicks)
	}
	if d.p.tank.Ack() >= 100 {
		t.Errorf("ack %d: inputs beyond the time budget were applied", d.p.tank.Ack())
	}
}
