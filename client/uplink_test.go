package client

import (
	"slices"
	"testing"
	"time"

	"tanknet/netcode"
	"tanknet/wire"
)

// sentLink is a Link that keeps everything sent on it.
type sentLink struct{ sent []wire.GameMessage }

func (l *sentLink) Welcome() wire.Welcome                    { return wire.Welcome{} }
func (l *sentLink) Drain(dst []Received) ([]Received, error) { return dst, nil }
func (l *sentLink) Send(m wire.GameMessage) error            { l.sent = append(l.sent, m); return nil }

func TestUplink_MovesAreSentAndTheNewestKept(t *testing.T) {
	l := &sentLink{}
	u := uplink{link: l, datagrams: true}
	for tick := uint32(1); tick <= 15; tick++ {
		if err := u.move(netcode.PendingInput{Tick: tick, Duration: netcode.StepInterval}); err != nil {
			t.Fatal(err)
		}
	}
	for i, m := range l.sent {
		if mv, ok := m.(wire.Move); !ok || mv.Tick != uint32(i+1) {
			t.Fatalf("message %d = %#v, want the Move of tick %d", i, m, i+1)
		}
	}
	if len(u.recent) != redundantInputs || u.recent[0].Tick != 6 {
		t.Fatalf("remembered %d inputs from tick %d, want %d from tick 6", len(u.recent), u.recent[0].Tick, redundantInputs)
	}
	if err := u.sendBatch(12, nil, 40, 0b101); err != nil {
		t.Fatal(err)
	}
	b, ok := l.sent[len(l.sent)-1].(wire.InputBatch)
	if !ok || b.AckTick != 40 || b.AckMask != 0b101 || len(b.Inputs) != 3 || b.Inputs[0].Tick != 13 {
		t.Errorf("batch = %#v, want ticks 13..15 with the acknowledgement 40/101", l.sent[len(l.sent)-1])
	}
}

func TestUplink_PingsEveryHalfSecond(t *testing.T) {
	l := &sentLink{}
	u := uplink{link: l}
	t0 := time.Unix(100, 0)
	for _, ms := range []int{0, 100, 499, 500, 900, 1000} {
		if err := u.ping(t0.Add(time.Duration(ms)*time.Millisecond), time.Duration(ms)*time.Millisecond); err != nil {
			t.Fatal(err)
		}
	}
	var got []uint64
	for _, m := range l.sent {
		got = append(got, m.(wire.Ping).ClientTimeUs)
	}
	if want := []uint64{0, 500_000, 1_000_000}; !slices.Equal(got, want) {
		t.Errorf("pinged at %v µs, want %v", got, want)
	}
}

func TestUplink_InputBatchRepeatsOnlyUnacknowledged(t *testing.T) {
	var u uplink
	for tick := uint32(1); tick <= 15; tick++ {
		u.remember(netcode.PendingInput{Tick: tick, Duration: netcode.StepInterval})
	}
	for _, tt := range []struct {
		ack        uint32
		first, got int // first tick repeated (0: none), how many
	}{{0, 6, 10}, {5, 6, 10}, {6, 7, 9}, {12, 13, 3}, {15, 0, 0}, {20, 0, 0}} {
		un := u.unacked(tt.ack, nil)
		if len(un) != tt.got || (tt.got > 0 && un[0].Tick != uint32(tt.first)) {
			t.Errorf("acknowledged up to %d: repeats %v, want %d from tick %d", tt.ack, un, tt.got, tt.first)
		}
	}
}

// TestUplink_InputBatchRepeatsTheOldestUnacknowledged: when more inputs are unacknowledged
// than the newest ten (a slow round trip, or a gap the server waits on), every batch also
// carries the four oldest, so an input every copy of which was lost still reaches the
// server with the next datagram that does.
func TestUplink_InputBatchRepeatsTheOldestUnacknowledged(t *testing.T) {
	arena := netcode.DefaultArena()
	local := netcode.NewLocal(&arena, netcode.DefaultLocalConfig(), netcode.State{})
	local.Advance(30 * netcode.StepInterval)
	var u uplink
	for range 30 {
		u.remember(local.Predict(netcode.Input{Throttle: 1}))
	}
	ticks := func(ack uint32) (out []uint32) {
		for _, p := range u.unacked(ack, local.Pending()) {
			out = append(out, p.Tick)
		}
		return out
	}
	for _, tt := range []struct {
		ack  uint32
		want []uint32
	}{
		{0, []uint32{1, 2, 3, 4, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30}},
		{17, []uint32{18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30}}, // three older than the newest ten
		{20, []uint32{21, 22, 23, 24, 25, 26, 27, 28, 29, 30}},             // the newest ten cover them all
		{25, []uint32{26, 27, 28, 29, 30}},
	} {
		if got := ticks(tt.ack); !slices.Equal(got, tt.want) {
			t.Errorf("acknowledged up to %d: batch repeats ticks %v, want %v", tt.ack, got, tt.want)
		}
	}
	if n := len(u.unacked(0, local.Pending())); n > wire.MaxBatchInputs {
		t.Errorf("a batch of %d inputs, over the %d one may carry", n, wire.MaxBatchInputs)
	}
}

// orderLink is a scriptLink that also keeps the kind of every message sent, in order.
type orderLink struct {
	scriptLink
	kinds []string
	pings []wire.Ping
}

func (l *orderLink) Send(m wire.GameMessage) error {
	switch m := m.(type) {
	case wire.Ping:
		l.kinds, l.pings = append(l.kinds, "ping"), append(l.pings, m)
	case wire.Move:
		l.kinds = append(l.kinds, "move")
	default:
		l.kinds = append(l.kinds, "other")
	}
	return l.scriptLink.Send(m)
}

// A due Ping leaves before the frame's replay and prediction steps, stamped with the frame's
// start: a round trip measured from it holds no time of the frame's own work.
func TestGame_APingLeavesBeforeTheFramesWork(t *testing.T) {
	link := &orderLink{scriptLink: scriptLink{welcome: wire.Welcome{PlayerID: 1, Arena: netcode.DefaultArena(),
		Rules: netcode.DefaultRules()}}}
	start := time.Unix(1000, 0)
	g := NewGame(link, DefaultOptions(), start)
	link.queue = append(link.queue, Received{At: start, Msg: decoded(snapshotMsg(1, map[uint32]netcode.State{1: {Pose: netcode.Pose{X: 5, Y: 5}}}))})
	if err := g.Update(start, netcode.Input{}); err != nil {
		t.Fatal(err)
	}
	link.kinds, link.pings = nil, nil
	now := start.Add(pingEvery) // a Ping is due, and ten steps
	link.queue = append(link.queue, Received{At: now, Msg: decoded(snapshotMsg(2, map[uint32]netcode.State{1: {Pose: netcode.Pose{X: 5, Y: 5}}}))})
	if err := g.Update(now, netcode.Input{Throttle: 1}); err != nil {
		t.Fatal(err)
	}
	if len(link.kinds) < 2 || link.kinds[0] != "ping" || !slices.Contains(link.kinds, "move") {
		t.Fatalf("sent %v in the frame, want its Ping first and then its moves", link.kinds)
	}
	if want := uint64(pingEvery / time.Microsecond); link.pings[0].ClientTimeUs != want {
		t.Errorf("the Ping carries %d µs, want the frame's start, %d µs", link.pings[0].ClientTimeUs, want)
	}
}
