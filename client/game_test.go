package client

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/wire"
)

func TestDriver_SameSeedSamePath(t *testing.T) {
	a, b, c := NewDriver(42), NewDriver(42), NewDriver(43)
	differs := false
	for i := range 500 {
		x, y, z := a.Next(), b.Next(), c.Next()
		if x != y {
			t.Fatalf("step %d: seed 42 gave %+v and %+v", i, x, y)
		}
		if x.Turn < -1 || x.Turn > 1 || x.Throttle < -1 || x.Throttle > 1 {
			t.Fatalf("step %d: input %+v out of range", i, x)
		}
		differs = differs || x != z
	}
	if !differs {
		t.Error("seeds 42 and 43 drove the same 500 steps")
	}
}

// offlineGame returns a Game on a session with no connection, fed by hand.
func offlineGame(t *testing.T) (*Game, *Session, time.Time) {
	t.Helper()
	sess := &Session{welcome: wire.Welcome{PlayerID: 1, Arena: netcode.DefaultArena()}}
	start := time.Unix(1000, 0)
	g := NewGame(sess, DefaultOptions(), start)
	g.uplink.lastPing = start.Add(time.Hour) // no pings: there is no connection to send them on
	return g, sess, start
}

func snapshotMsg(tick uint32, states map[uint32]netcode.State) *tankv1.ServerMessage {
	snap := &tankv1.Snapshot{ServerTick: tick}
	for id := uint32(1); id <= 8; id++ {
		if st, ok := states[id]; ok {
			st.Tick = tick
			snap.Players = append(snap.Players, wire.StateToProto(id, st))
		}
	}
	return &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Snapshot{Snapshot: snap}}
}

func TestGame_SnapshotsFeedLocalAndRemotes(t *testing.T) {
	g, sess, start := offlineGame(t)
	if g.Local() != nil {
		t.Fatal("Local exists before any snapshot")
	}
	me, other := netcode.Pose{X: 5, Y: 5}, netcode.Pose{X: 20, Y: 10}
	for i := range 3 {
		at := start.Add(time.Duration(i) * 50 * time.Millisecond)
		other.X += 0.25
		sess.queue = append(sess.queue, Received{At: at, Msg: decoded(snapshotMsg(uint32(i+1), map[uint32]netcode.State{
			1: {Pose: me}, 2: {Pose: other}}))})
		g.pace.last = at // zero-length frames: no prediction steps to send
		if err := g.Update(at, netcode.Input{}); err != nil {
			t.Fatal(err)
		}
	}
	if g.Local() == nil || g.Local().Predicted() != me {
		t.Fatalf("local tank = %v, want created at %v", g.Local(), me)
	}
	rm := g.Remotes()[2]
	if rm == nil || rm.Interp.Len() != 3 {
		t.Fatalf("remote 2 = %+v, want 3 buffered samples", rm)
	}
	if len(g.Remotes()) != 1 {
		t.Errorf("remotes = %d, want only player 2 (we are not our own remote)", len(g.Remotes()))
	}
	st := g.Stats()
	if st.Snapshots != 3 || st.PlayersSeen != 2 || st.ServerTick != 3 {
		t.Errorf("stats = %+v, want 3 snapshots, 2 players seen, server tick 3", st)
	}
	if r := g.Report(); r.Reconciliations != 2 || r.InterpFrames != 3 {
		t.Errorf("report = %+v, want 2 reconciliations (the first state creates the tank) and 3 frames", r)
	}
}

// A remote tank is drawn where its snapshots put it 100 ms ago (the interpolation delay),
// between the two states that bracket that moment by their arrival times, not at its newest
// state.
func TestGame_RemoteDrawnBetweenTheStatesOf100msAgo(t *testing.T) {
	g, sess, start := offlineGame(t)
	me := netcode.Pose{X: 5, Y: 5}
	for i := range 4 { // the other tank at x = 20.25, 20.5, 20.75, 21, arriving 50 ms apart
		at := start.Add(time.Duration(i) * 50 * time.Millisecond)
		other := netcode.Pose{X: 20 + 0.25*float64(i+1), Y: 10}
		sess.queue = append(sess.queue, Received{At: at, Msg: decoded(snapshotMsg(uint32(i+1), map[uint32]netcode.State{
			1: {Pose: me}, 2: {Pose: other}}))})
		g.pace.last = at // zero-length frames: no prediction steps to send
		if err := g.Update(at, netcode.Input{}); err != nil {
			t.Fatal(err)
		}
	}
	now := start.Add(175 * time.Millisecond) // renders 75 ms: halfway from the state of 50 ms to that of 100 ms
	g.pace.last = now
	if err := g.Update(now, netcode.Input{}); err != nil {
		t.Fatal(err)
	}
	rm := g.Remotes()[2]
	if want := (netcode.Pose{X: 20.625, Y: 10}); rm == nil || rm.Pose != want || !rm.Bracketed {
		t.Fatalf("remote 2 drawn at %+v, want %v between two states (the newest is at x 21)", rm, want)
	}
}

func TestGame_RosterAndRTT(t *testing.T) {
	g, sess, start := offlineGame(t)
	at := start.Add(time.Second)
	sess.queue = append(sess.queue,
		Received{At: at, Msg: decoded(&tankv1.ServerMessage{Kind: &tankv1.ServerMessage_RosterUpdate{RosterUpdate: &tankv1.RosterUpdate{Joined: []*tankv1.PlayerJoined{{PlayerId: 2, Name: "bob"}}}}})},
		Received{At: at, Msg: decoded(snapshotMsg(1, map[uint32]netcode.State{2: {}}))},
		Received{At: at, Msg: decoded(&tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Pong{Pong: &tankv1.Pong{ClientTimeUs: uint64((time.Second - 80*time.Millisecond) / time.Microsecond)}}})},
	)
	g.pace.last = at
	if err := g.Update(at, netcode.Input{}); err != nil {
		t.Fatal(err)
	}
	if g.Name(2) != "bob" || g.Remotes()[2].Name != "bob" {
		t.Errorf("name of player 2 = %q / %q, want bob", g.Name(2), g.Remotes()[2].Name)
	}
	if g.Stats().RTT != 80*time.Millisecond {
		t.Errorf("RTT = %v, want 80ms", g.Stats().RTT)
	}
	frames := g.Report().InterpFrames
	sess.queue = append(sess.queue, Received{At: at, Msg: decoded(&tankv1.ServerMessage{Kind: &tankv1.ServerMessage_RosterUpdate{RosterUpdate: &tankv1.RosterUpdate{
		Joined: []*tankv1.PlayerJoined{{PlayerId: 3, Name: "cy"}}, Left: []*tankv1.PlayerLeft{{PlayerId: 2, Reason: "goodbye"}, {PlayerId: 3, Reason: "quick"}}}}})})
	if err := g.Update(at, netcode.Input{}); err != nil {
		t.Fatal(err)
	}
	if len(g.Remotes()) != 0 || g.Name(2) != "" {
		t.Errorf("after a roster update with 2 leaving: remotes %d, name %q; want gone", len(g.Remotes()), g.Name(2))
	}
	if got := g.Report().InterpFrames; got != frames {
		t.Errorf("report frames after leave = %d, want the departed remote's %d kept", got, frames)
	}
}

func TestGame_ReturnsSessionError(t *testing.T) {
	g, sess, start := offlineGame(t)
	sess.err = &DisconnectedError{Code: wire.DisconnectProtocolError, Reason: "protocol error: test"}
	err := g.Update(start, netcode.Input{})
	if err == nil || !strings.Contains(err.Error(), "protocol error: test") {
		t.Errorf("Update = %v, want the session's disconnect", err)
	}
}

func TestDial_NobodyListening(t *testing.T) {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0") // a port that never answers
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	_, err = Dial(context.Background(), pc.LocalAddr().String(), "ada", nil, 200*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "no answer") {
		t.Errorf("Dial to a silent port = %v, want a no-answer error", err)
	}
}
