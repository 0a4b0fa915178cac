package client

import (
	"testing"
	"time"

	"tanknet/netcode"
)

// TestPrediction_TheFirstStatePlacesTheTankAndLaterOnesReconcile: the tank appears where the
// server first says, keeps enough inputs for the server's input lead, and drops the ones a
// later state acknowledges.
func TestPrediction_TheFirstStatePlacesTheTankAndLaterOnesReconcile(t *testing.T) {
	arena := netcode.DefaultArena()
	p := prediction{cfg: netcode.DefaultLocalConfig()}
	if p.pending() != nil {
		t.Fatal("inputs pending before the tank exists")
	}
	lead := uint32(p.cfg.MaxPending + 20) // a server that takes inputs further ahead than the default keeps
	p.take(&arena, lead, netcode.State{Tick: 1, Pose: netcode.Pose{X: 5, Y: 5}}, false)
	if p.local == nil || p.local.Predicted() != (netcode.Pose{X: 5, Y: 5}) {
		t.Fatalf("after the first state: local %v, want a tank at (5, 5)", p.local)
	}
	steps := int(lead)
	p.local.Advance(time.Duration(steps) * netcode.StepInterval)
	for range steps {
		in := p.step(netcode.Input{Throttle: 1}, nil)
		p.sent(in.Tick)
	}
	if n := len(p.pending()); n != steps || p.local.Counters().PendingDropped != 0 {
		t.Fatalf("%d inputs pending, %d dropped; want all %d kept for the server's lead", n, p.local.Counters().PendingDropped, steps)
	}
	if p.lastMove != uint32(steps) {
		t.Errorf("lastMove = %d, want %d", p.lastMove, steps)
	}
	pose := netcode.Pose{X: 5, Y: 5} // where the server has the tank after our first ten inputs
	for _, in := range p.pending()[:10] {
		pose = in.Apply(&arena, pose)
	}
	ack := p.pending()[9]
	p.take(&arena, lead, netcode.State{Tick: 12, Pose: pose, Ack: ack.Tick}, false)
	if n := len(p.pending()); n != steps-10 || p.pending()[0].Tick != ack.Tick+1 {
		t.Errorf("after acknowledging tick %d: %d pending from tick %d, want %d from %d", ack.Tick, n, p.pending()[0].Tick, steps-10, ack.Tick+1)
	}
	if c := p.local.Counters(); c.Reconciliations != 1 || c.NonZeroResiduals != 0 {
		t.Errorf("counters %+v, want one reconciliation with no residual: the server agreed", c)
	}
}
