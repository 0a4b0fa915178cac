package client

import (
	"testing"
	"time"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
)

// feedTick delivers one snapshot of tick at 50 ms per tick after start and runs a frame.
func feedTick(t *testing.T, g *Game, sess *Session, start time.Time, tick uint32, states map[uint32]netcode.State, left ...uint32) {
	t.Helper()
	at := start.Add(time.Duration(tick) * netcode.StepInterval)
	msg := snapshotMsg(tick, states)
	msg.GetSnapshot().LeftView = left
	sess.queue = append(sess.queue, Received{At: at, Msg: decoded(msg)})
	g.pace.last = at // zero-length frames: no prediction steps to send
	if err := g.Update(at, netcode.Input{}); err != nil {
		t.Fatal(err)
	}
}

// TestGame_TankLeavesAndReentersView: a remote named in left_view is forgotten at once; when
// it comes back, it is drawn where it is, never slid from the stale pose, and its old samples
// do not count as holds meanwhile.
func TestGame_TankLeavesAndReentersView(t *testing.T) {
	g, sess, start := offlineGame(t)
	g.others.names[2] = "walker"
	me := netcode.Pose{X: 5, Y: 5}
	walker := netcode.Pose{X: 20, Y: 10}
	tick := uint32(0)
	for range 6 {
		tick++
		walker.X += 0.25
		feedTick(t, g, sess, start, tick, map[uint32]netcode.State{1: {Pose: me}, 2: {Pose: walker}})
	}
	if g.Remotes()[2] == nil {
		t.Fatal("walker not drawn while in view")
	}
	tick++
	feedTick(t, g, sess, start, tick, map[uint32]netcode.State{1: {Pose: me}}, 2)
	if g.Remotes()[2] != nil || g.Stats().LeftView != 1 {
		t.Fatalf("walker named in left_view still drawn (remotes %v, stats %+v)", g.Remotes(), g.Stats())
	}
	for range 20 { // out of view: nothing of it, and no holds counted for it
		tick++
		feedTick(t, g, sess, start, tick, map[uint32]netcode.State{1: {Pose: me}})
	}
	// Close to where it left (an interpolator that still held the old samples would slide
	// from them).
	back := netcode.Pose{X: walker.X + 1, Y: walker.Y}
	for i := range 3 { // from the first state on: an old sample would bracket the render time
		tick++
		feedTick(t, g, sess, start, tick, map[uint32]netcode.State{1: {Pose: me}, 2: {Pose: back}})
		rm := g.Remotes()[2]
		if rm == nil {
			t.Fatalf("state %d after coming back: walker not drawn", i+1)
		}
		if d := rm.Pose.Distance(back); d != 0 {
			t.Errorf("state %d after coming back: walker drawn at %v, %v from where it is: slid from a stale pose", i+1, rm.Pose, d)
		}
	}
}

// TestGame_ReentryWithoutNoticeIsATeleport: if every left_view naming a tank was lost, a
// state after a gap of reenterGap ticks or more still starts its interpolation afresh.
func TestGame_ReentryWithoutNoticeIsATeleport(t *testing.T) {
	g, sess, start := offlineGame(t)
	g.others.names[2] = "walker"
	me := netcode.Pose{X: 5, Y: 5}
	for tick := uint32(1); tick <= 5; tick++ {
		feedTick(t, g, sess, start, tick, map[uint32]netcode.State{1: {Pose: me}, 2: {Pose: netcode.Pose{X: 20, Y: 10}}})
	}
	back := netcode.Pose{X: 21, Y: 10}                                 // stale samples would slide to it
	for tick := uint32(5 + reenterGap); tick <= 8+reenterGap; tick++ { // from the first state on
		feedTick(t, g, sess, start, tick, map[uint32]netcode.State{1: {Pose: me}, 2: {Pose: back}})
		if rm := g.Remotes()[2]; rm == nil || rm.Pose.Distance(back) != 0 {
			t.Errorf("tick %d, after a %d-tick gap: remote %+v, want it drawn where it is", tick, reenterGap, rm)
		}
	}
	if g.Stats().Reentered != 1 {
		t.Errorf("stats %+v: want one re-entry", g.Stats())
	}
	// A stale left_view (older than the newest state) forgets nothing.
	msg := snapshotMsg(6+reenterGap, map[uint32]netcode.State{1: {Pose: me}})
	msg.GetSnapshot().LeftView = []uint32{2}
	g.receive(Received{At: start, Msg: decoded(&tankv1.ServerMessage{Kind: msg.GetKind()})})
	if g.Remotes()[2] == nil {
		t.Error("a left_view older than the remote's newest state forgot it")
	}
}
