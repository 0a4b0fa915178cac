package client

import (
	"testing"
	"time"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/wire"
)

// scriptLink is a Link with no network behind it: a test queues what "arrives" and reads
// what the Game sent.
type scriptLink struct {
	welcome wire.Welcome
	queue   []Received
	sent    []netcode.PendingInput
	modes   []bool
}

func (l *scriptLink) Welcome() wire.Welcome { return l.welcome }
func (l *scriptLink) Drain(dst []Received) ([]Received, error) {
	dst = append(dst, l.queue...)
	l.queue = l.queue[:0]
	return dst, nil
}
func (l *scriptLink) Send(m wire.GameMessage) error {
	switch m := m.(type) {
	case wire.Move:
		l.sent = append(l.sent, netcode.PendingInput(m))
	case wire.InputMode:
		l.modes = append(l.modes, m.OnArrival)
	}
	return nil
}

// scriptedServer plays the server's part in one loop of virtual time: every 50 ms it applies
// the inputs the Game sent that have crossed the link (latency one way), one a tick, with
// the same netcode.Simulate, and its snapshot reaches the Game latency later.
type scriptedServer struct {
	arena   netcode.Arena
	link    *scriptLink
	latency time.Duration
	me      netcode.Pose
	ack     uint32
	applied int
	sentAt  []time.Time // when each of link.sent left the Game
	tick    uint32
	pending []Received // snapshots on their way, in arrival order
}

// serve runs the server ticks due at now and delivers the snapshots that have arrived.
func (s *scriptedServer) serve(now time.Time, remote func(tick uint32) netcode.Pose) {
	for len(s.sentAt) < len(s.link.sent) {
		s.sentAt = append(s.sentAt, now)
	}
	if s.tick == 0 || now.Sub(s.tickTime(s.tick)) >= netcode.StepInterval {
		s.tick++
		if s.applied < len(s.link.sent) && !s.sentAt[s.applied].Add(s.latency).After(now) {
			in := s.link.sent[s.applied]
			s.me = netcode.Simulate(&s.arena, s.me, in.Input, in.Duration)
			s.ack, s.applied = in.Tick, s.applied+1
		}
		snap := &tankv1.Snapshot{ServerTick: s.tick, Players: []*tankv1.PlayerState{
			wire.StateToProto(1, netcode.State{Tick: s.tick, Pose: s.me, Ack: s.ack}),
			wire.StateToProto(2, netcode.State{Tick: s.tick, Pose: remote(s.tick)}),
		}}
		s.pending = append(s.pending, Received{At: now.Add(s.latency), Msg: decoded(&tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Snapshot{Snapshot: snap}})})
	}
	for len(s.pending) > 0 && !s.pending[0].At.After(now) {
		s.link.queue = append(s.link.queue, s.pending[0])
		s.pending = s.pending[1:]
	}
}

func (s *scriptedServer) tickTime(tick uint32) time.Time {
	return time.Unix(1000, 0).Add(time.Duration(tick-1) * netcode.StepInterval)
}

// TestGame_DrivenByAScriptedFeed drives a Game through a Link with no network: 60 frames a
// second of virtual time for 4 s, the server's part played by a script that simulates the
// inputs the Game sent with netcode's own rules 40 ms later. The Game predicts, prunes what
// the snapshots acknowledge, replays the rest with no residual at all, and interpolates the
// other tank between the states it was sent.
func TestGame_DrivenByAScriptedFeed(t *testing.T) {
	arena := netcode.DefaultArena()
	link := &scriptLink{welcome: wire.Welcome{PlayerID: 1, Arena: arena}}
	start := time.Unix(1000, 0)
	srv := &scriptedServer{arena: arena, link: link, latency: 40 * time.Millisecond, me: netcode.Pose{X: 10, Y: 10}}
	remote := func(tick uint32) netcode.Pose { return netcode.Pose{X: 5 + 0.1*float64(tick), Y: 30} }
	g := NewGame(link, DefaultOptions(), start)
	in := netcode.Input{Turn: 0.3, Throttle: 1}
	frame := time.Second / 60
	for now := start; now.Before(start.Add(4 * time.Second)); now = now.Add(frame) {
		srv.serve(now, remote)
		if err := g.Update(now, in); err != nil {
			t.Fatal(err)
		}
	}
	l := g.Local()
	if l == nil {
		t.Fatal("no local tank after 4 s of snapshots")
	}
	c := l.Counters()
	if len(link.sent) < 60 || c.Reconciliations < 60 {
		t.Fatalf("sent %d inputs, %d reconciliations in 4 s; want a prediction step and a snapshot every 50 ms", len(link.sent), c.Reconciliations)
	}
	if c.NonZeroResiduals != 0 {
		t.Errorf("%d reconciliations moved the prediction (max %v): the script simulates exactly what the Game predicts", c.NonZeroResiduals, c.MaxResidual)
	}
	ack := l.Baseline().Ack
	if p := l.Pending(); len(p) == 0 || len(p) > 6 || p[0].Tick != ack+1 || ack == 0 || ack > srv.ack {
		t.Errorf("pending ticks %v with the newest ack seen %d (server %d): want only the few inputs after it", p, ack, srv.ack)
	}
	if want := netcode.Replay(&arena, netcode.Pose{X: 10, Y: 10}, link.sent[:srv.applied]); srv.me != want {
		t.Fatalf("the script's pose %v is not the replay %v of what the Game sent", srv.me, want)
	}
	rm := g.Remotes()[2]
	if rm == nil {
		t.Fatal("the other tank was never drawn")
	}
	newest, _ := rm.Interp.Newest()
	if rm.Pose.X >= newest.Pose.X || rm.Pose.X <= remote(1).X {
		t.Errorf("other tank drawn at x=%v; want it between its first state (%v) and its newest (%v), behind the newest", rm.Pose.X, remote(1).X, newest.Pose.X)
	}
	if len(link.modes) != 0 {
		t.Errorf("the Game asked for input modes %v without being told to", link.modes)
	}
	g.SetInputOnArrival(true)
	if err := g.Update(start.Add(4*time.Second+frame), in); err != nil {
		t.Fatal(err)
	}
	if len(link.modes) != 1 || !link.modes[0] {
		t.Errorf("after SetInputOnArrival(true) the Game sent modes %v, want [true]", link.modes)
	}
}
