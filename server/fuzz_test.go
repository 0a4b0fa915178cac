package server

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
	"tanknet/wire"
)

// fuzzStepEvery is how many client messages the fuzzed world reads between two ticks: a few,
// so inputs, joins and leaves interleave with ticks, and far below the inbox limit
// (MaxInputLead) the real reader enforces between ticks.
const fuzzStepEvery = 4

// fuzzStream frames msgs back to back, as a client's bytes arrive on the wire.
func fuzzStream(tb testing.TB, msgs ...*tankv1.ClientMessage) []byte {
	tb.Helper()
	var b []byte
	for _, m := range msgs {
		var err error
		if b, err = transport.AppendFrame(b, m); err != nil {
			tb.Fatal(err)
		}
	}
	return b
}

func fHello(name string) *tankv1.ClientMessage {
	return &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Hello{Hello: &tankv1.Hello{ProtocolVersion: 1, Name: name}}}
}

func fMove(tick uint32, turn, throttle float64, ms uint32) *tankv1.ClientMessage {
	return &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_MoveInput{MoveInput: &tankv1.MoveInput{
		Tick: tick, Turn: turn, Throttle: throttle, DurationMs: ms}}}
}

func fGoodbye(reason string) *tankv1.ClientMessage {
	return &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Goodbye{Goodbye: &tankv1.Goodbye{Reason: reason}}}
}

func fFire(moveTick uint32, lagComp bool, views ...*tankv1.TankView) *tankv1.ClientMessage {
	return &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Fire{Fire: &tankv1.Fire{MoveTick: moveTick, LagCompensation: lagComp, Views: views}}}
}

func fView(id, from, to uint32, fraction float64) *tankv1.TankView {
	return &tankv1.TankView{PlayerId: id, FromTick: from, ToTick: to, Fraction: fraction}
}

// fBatch is an InputBatch of full-throttle 50 ms inputs for the given move ticks.
func fBatch(ticks ...uint32) *tankv1.ClientMessage {
	var moves []*tankv1.ClientMessage
	for _, tick := range ticks {
		moves = append(moves, fMove(tick, 0.2, 1, 50))
	}
	return fBatchOf(moves...)
}

// fBatchOf is an InputBatch of the MoveInputs in moves (each made by fMove).
func fBatchOf(moves ...*tankv1.ClientMessage) *tankv1.ClientMessage {
	b := &tankv1.InputBatch{}
	for _, m := range moves {
		b.Inputs = append(b.Inputs, m.GetMoveInput())
	}
	return &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_InputBatch{InputBatch: b}}
}

func fPing(us uint64) *tankv1.ClientMessage {
	return &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Ping{Ping: &tankv1.Ping{ClientTimeUs: us}}}
}

// FuzzWorld reads the input as a stream of framed ClientMessages and drives a world with them
// the way the server's connection handlers would: Hello joins a new player (rejects are
// fine), MoveInput goes to the newest player still in the game, Goodbye makes that player
// leave, Fire is the newest player's shot, Ping is ignored. The world ticks every few
// messages with contact on. Whatever the bytes, the world must not panic, every snapshot must
// decode and list exactly the players in the game in id order, every pose must be finite and
// inside the walls, every PlayerLeft reason and PlayerJoined name must stay within its bound,
// no player's ack may go backwards, health stays within the rules (0 exactly when
// destroyed), and every ShotResult is a hit, a miss or a refusal with a reason.
func FuzzWorld(f *testing.F) {
	// A player joins and drives a little, turning.
	f.Add(fuzzStream(f, fHello("ada"), fMove(1, 0.5, 1, 50), fMove(2, 0.5, 1, 50),
		fMove(3, -1, 1, 120), fPing(7), fMove(4, 0, -1, 200)))
	// Two players drive into each other, so contact resolution runs; then one leaves.
	f.Add(fuzzStream(f, fHello("a"), fHello("b"), fMove(1, 0, 1, 200), fMove(2, 0, 1, 200),
		fMove(3, 0, 1, 200), fMove(4, 0, 1, 200), fGoodbye("done"), fMove(1, 0, -1, 200)))
	// A NaN input: its player is dropped, the other stays.
	f.Add(fuzzStream(f, fHello("good"), fHello("bad"), fMove(1, math.NaN(), 1, 50), fMove(2, 0, 1, 50)))
	// Infinite and out-of-range inputs: Inf is dropped, 1e300 is clamped.
	f.Add(fuzzStream(f, fHello("x"), fMove(1, 1e300, -1e300, 50), fMove(2, math.Inf(1), 0, 50)))
	// A Goodbye whose 2 KB reason is ten times what may be repeated, two-byte runes padded with
	// spaces: what the others hear must still be short. (Invalid UTF-8 cannot get this far:
	// proto3 strings are checked when the frame is decoded.)
	f.Add(fuzzStream(f, fHello("a"), fHello("b"), fGoodbye("  "+strings.Repeat("é", 1000)+" ")))
	// A far-future tick and a zero and an hour-long duration: each is a protocol error.
	f.Add(fuzzStream(f, fHello("a"), fMove(math.MaxUint32, 0, 1, 50), fHello("b"), fMove(1, 0, 1, 0),
		fHello("c"), fMove(1, 0, 1, 3_600_000)))
	// Stale and duplicate ticks after a good one.
	f.Add(fuzzStream(f, fHello("a"), fMove(5, 0, 1, 50), fMove(5, 0, 1, 50), fMove(1, 0, 1, 50)))
	// More Hellos than seats, with empty and oversized names.
	var crowd []*tankv1.ClientMessage
	for i := range 20 {
		crowd = append(crowd, fHello(strings.Repeat("n", i*5)))
	}
	f.Add(fuzzStream(f, crowd...))
	// A player backs into the west wall, one 50 ms input a tick (pings pad the ticks): its
	// pose must stop at the wall, a tank radius from the edge.
	reverse := []*tankv1.ClientMessage{fHello("reverse")}
	for tick := range uint32(20) {
		reverse = append(reverse, fMove(tick+1, 0, -1, 50), fPing(0), fPing(0), fPing(0))
	}
	f.Add(fuzzStream(f, reverse...))
	// Two tanks; the second fires at the first with a held view, a bracketed one, then bad
	// ones: NaN, future, backwards, too old, a tick it never played, and too soon.
	f.Add(fuzzStream(f, fHello("target"), fHello("gunner"), fMove(1, 0, 0, 50), fPing(0), fPing(0),
		fMove(2, 0, 0, 50), fFire(2, true, fView(1, 1, 1, 0)), fPing(0), fMove(3, 0, 0, 50),
		fFire(3, true, fView(1, 2, 3, 0.5)), fFire(13, true, fView(1, 2, 3, math.NaN())),
		fFire(14, true, fView(1, 9, 99, 0.5)), fFire(15, true, fView(1, 3, 2, 0)),
		fFire(16, false, fView(1, 1, 1, 0)), fFire(900, true), fFire(3, false)))
	// A Fire before any MoveInput, and one listing far more tanks than there are.
	var many []*tankv1.TankView
	for i := range 40 {
		many = append(many, fView(uint32(i+1), 1, 1, 0))
	}
	f.Add(fuzzStream(f, fHello("a"), fFire(1, true), fMove(1, 0, 1, 50), fFire(1, true, many...)))
	// Datagram copies: ahead of the stream, repeated, past a gap, and one breaking the rules.
	f.Add(fuzzStream(f, fHello("dg"), fBatch(1, 2, 3), fMove(1, 0, 1, 50), fBatch(2, 3, 4),
		fBatch(7, 8), fMove(2, 0, 1, 50), fMove(3, 0, 1, 50), fBatch(4, 5), fMove(4, 0, 1, 50),
		fMove(5, 0, 1, 50), fMove(6, 0, 1, 50), fMove(7, 0, 1, 50)))
	f.Add(fuzzStream(f, fHello("nan"), fBatchOf(fMove(1, math.NaN(), 1, 50)), fMove(1, 0, 1, 50), fBatch(2)))
	// Garbage after a valid frame: reading stops there.
	f.Add(append(fuzzStream(f, fHello("a"), fMove(1, 0, 1, 50)), 0xff, 0xff, 0xff))

	f.Fuzz(func(t *testing.T, data []byte) {
		w := newTestWorld(t, func(c *Config) { c.Rules.Contact, c.Lane = netcode.ContactServer, wire.LaneDatagram })
		fz := &fuzzWorld{t: t, w: w, peers: map[uint32]*fakePeer{}, acks: map[uint32]uint32{}, applied: map[uint32]uint32{}}
		fr := transport.NewFrameReader(bytes.NewReader(data))
		for n := 1; ; n++ {
			var m tankv1.ClientMessage
			if err := fr.Read(&m); err != nil {
				break
			}
			fz.handle(&m)
			if n%fuzzStepEvery == 0 {
				fz.step()
			}
		}
		fz.step() // the last messages get a tick too
	})
}

// fuzzWorld is FuzzWorld's harness: the world, every peer that ever joined, and the last ack
// seen for each player.
type fuzzWorld struct {
	t     *testing.T
	w     *game
	now   time.Duration
	peers map[uint32]*fakePeer
	acks  map[uint32]uint32
	// applied is the last move tick the world applied for each player.
	applied map[uint32]uint32
}

// current returns the newest player still in the game, or nil.
func (fz *fuzzWorld) current() *player {
	if len(fz.w.players()) == 0 {
		return nil
	}
	return fz.w.players()[len(fz.w.players())-1]
}

// handle does with m what a connection handler and the world loop would do.
func (fz *fuzzWorld) handle(m *tankv1.ClientMessage) {
	switch k := m.GetKind().(type) {
	case *tankv1.ClientMessage_Hello:
		// The handshake checks the protocol version before the world hears of the player;
		// the world only sees the name.
		fp := new(fakePeer)
		if p, reject := fz.w.join(fz.now, k.Hello.GetName(), fp); reject == nil {
			fz.peers[p.tank.ID()] = fp
		}
	case *tankv1.ClientMessage_MoveInput:
		if p := fz.current(); p != nil {
			fp := fz.peers[p.tank.ID()]
			fp.inputs = append(fp.inputs, wire.MoveFromProto(k.MoveInput))
		}
	case *tankv1.ClientMessage_Fire:
		if p := fz.current(); p != nil {
			fp := fz.peers[p.tank.ID()]
			fp.fires = append(fp.fires, wire.FireFromProto(k.Fire, nil))
		}
	case *tankv1.ClientMessage_InputBatch:
		// What onDatagram would queue; on the stream a batch is refused before the world.
		if p := fz.current(); p != nil && len(k.InputBatch.GetInputs()) <= wire.MaxBatchInputs {
			fp := fz.peers[p.tank.ID()]
			for _, in := range k.InputBatch.GetInputs() {
				fp.copies = append(fp.copies, wire.MoveFromProto(in))
			}
		}
	case *tankv1.ClientMessage_Goodbye:
		if p := fz.current(); p != nil {
			fz.w.leave(p.tank.ID(), "goodbye: "+k.Goodbye.GetReason())
		}
	}
}

// step advances the world by one tick and checks every invariant.
func (fz *fuzzWorld) step() {
	t, w := fz.t, fz.w
	fz.now += netcode.StepInterval
	rec := w.step(fz.now)
	for _, a := range rec.Applied { // every input once, in tick order: ticks only grow
		if a.MoveTick <= fz.applied[a.Player] {
			t.Fatalf("tick %d: player %d applied move tick %d after %d", w.tick(), a.Player, a.MoveTick, fz.applied[a.Player])
		}
		fz.applied[a.Player] = a.MoveTick
	}

	a := &w.cfg.Arena
	r := a.TankRadius
	for i, p := range w.players() {
		if i > 0 && w.players()[i-1].tank.ID() >= p.tank.ID() {
			t.Fatalf("tick %d: players %d and %d out of id order", w.tick(), w.players()[i-1].tank.ID(), p.tank.ID())
		}
		if !a.Inside(p.tank.Pose()) {
			t.Fatalf("tick %d: player %d pose %v not finite or outside [%v, %v] x [%v, %v]",
				w.tick(), p.tank.ID(), p.tank.Pose(), r, a.Width-r, r, a.Height-r)
		}
		if p.tank.Ack() < fz.acks[p.tank.ID()] {
			t.Fatalf("tick %d: player %d ack went from %d back to %d", w.tick(), p.tank.ID(), fz.acks[p.tank.ID()], p.tank.Ack())
		}
		fz.acks[p.tank.ID()] = p.tank.Ack()
		if p.tank.Health() > w.cfg.Rules.MaxHealth || (p.tank.Health() == 0) != p.tank.Destroyed() {
			t.Fatalf("tick %d: player %d health %d destroyed %v, want health in (0, %d] or destroyed at 0",
				w.tick(), p.tank.ID(), p.tank.Health(), p.tank.Destroyed(), w.cfg.Rules.MaxHealth)
		}
	}
	// Each player gets its own chunks (delta snapshots are per client); with no snapshot
	// acknowledged every tank travels whole, so each player's chunks hold the whole world.
	for _, p := range w.players() {
		snap, err := mergeChunks(fz.peers[p.tank.ID()].chunks)
		if err != nil {
			t.Fatalf("tick %d: player %d: %v", w.tick(), p.tank.ID(), err)
		}
		fz.checkSnapshot(snap)
	}
	for id, fp := range fz.peers {
		for _, m := range fp.control {
			for _, left := range m.GetRosterUpdate().GetLeft() {
				if len(left.GetReason()) > maxReasonBytes {
					t.Fatalf("tick %d: player %d told PlayerLeft{%d} with a %d-byte reason, want at most %d",
						w.tick(), id, left.GetPlayerId(), len(left.GetReason()), maxReasonBytes)
				}
			}
			for _, joined := range m.GetRosterUpdate().GetJoined() {
				if len(joined.GetName()) > maxNameBytes {
					t.Fatalf("tick %d: player %d told PlayerJoined{%d} with a %d-byte name, want at most %d",
						w.tick(), id, joined.GetPlayerId(), len(joined.GetName()), maxNameBytes)
				}
			}
		}
		for _, m := range fp.control {
			if r := m.GetShotResult(); r != nil {
				refused := r.GetVerdict() == tankv1.ShotVerdict_SHOT_VERDICT_REFUSED
				if r.GetVerdict() == tankv1.ShotVerdict_SHOT_VERDICT_UNSPECIFIED || refused != (r.GetRefusal() != tankv1.ShotRefusal_SHOT_REFUSAL_UNSPECIFIED) {
					t.Fatalf("tick %d: player %d told %v: want a hit, a miss or a refusal with its reason", w.tick(), id, r)
				}
			}
		}
		fp.control = fp.control[:0] // checked; keep memory flat on long inputs
	}
}

// checkSnapshot checks the snapshot this tick offered every player (its chunks merged)
// lists exactly the players in the game, in id order, with their poses and acks.
func (fz *fuzzWorld) checkSnapshot(snap *tankv1.Snapshot) {
	t, w := fz.t, fz.w
	if snap.GetServerTick() != w.tick() {
		t.Fatalf("tick %d: players were offered %v, want this tick's snapshot", w.tick(), snap)
	}
	got := snap.GetPlayers()
	if len(got) != len(w.players()) {
		t.Fatalf("tick %d: snapshot lists %d players, want %d", w.tick(), len(got), len(w.players()))
	}
	for i, ps := range got {
		p := w.players()[i]
		s := wire.StateFromProto(ps)
		if ps.GetPlayerId() != p.tank.ID() || s.Pose != p.tank.Pose() || s.Ack != p.tank.Ack() {
			t.Fatalf("tick %d: snapshot entry %d = {id %d pose %v ack %d}, want {id %d pose %v ack %d}",
				w.tick(), i, ps.GetPlayerId(), s.Pose, s.Ack, p.tank.ID(), p.tank.Pose(), p.tank.Ack())
		}
	}
}
