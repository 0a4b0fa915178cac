package server

import (
	"bytes"
	"io"
	"log/slog"
	"math"
	"tanknet/world"
	"testing"
	"time"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
	"tanknet/wire"
)

// fakePeer stands in for a KCP session: it holds queued inputs and records what the world
// sends.
type fakePeer struct {
	inputs       []netcode.PendingInput
	fires        []netcode.ShotRequest
	copies       []netcode.PendingInput // datagram inputs
	control      []*tankv1.ServerMessage
	snapshot     []byte
	chunks       [][]byte
	kicked       string
	kickCode     wire.DisconnectCode      // the code of the kick, with kicked its text
	ack          uint32                   // the snapshot acknowledgement it reports
	roundTrip    time.Duration            // the round trip it reports
	mode         world.InputMode          // how the client asked for its inputs to be applied
	arrived      map[uint32]time.Duration // when each move tick arrived, for the input buffer's report
	away         uint32                   // the last move tick of the Away it sent, when awaySent
	awaySent     bool
	awaysIgnored int // Aways the world found out of date (awayIgnored)
}

func (p *fakePeer) takeInputs(dst []netcode.PendingInput) []netcode.PendingInput {
	dst = append(dst, p.inputs...)
	p.inputs = p.inputs[:0]
	return dst
}
func (p *fakePeer) takeDatagramInputs(dst []netcode.PendingInput) []netcode.PendingInput {
	dst = append(dst, p.copies...)
	p.copies = p.copies[:0]
	return dst
}
func (p *fakePeer) sendChunks(chunks [][]byte) { p.chunks = chunks }
func (p *fakePeer) takeFires(dst []netcode.ShotRequest) []netcode.ShotRequest {
	dst = append(dst, p.fires...)
	p.fires = p.fires[:0]
	return dst
}
func (p *fakePeer) send(frame []byte)          { p.control = append(p.control, decodeFrame(frame)) }
func (p *fakePeer) sendRoster(c controlFrame)  { p.send(c.frame) }
func (p *fakePeer) sendSnapshot(frame []byte)  { p.snapshot = frame }
func (p *fakePeer) kick(reason dropReason)     { p.kicked, p.kickCode = reason.String(), reason.kind.code }
func (p *fakePeer) snapshotAck() uint32        { return p.ack }
func (p *fakePeer) rtt() time.Duration         { return p.roundTrip }
func (p *fakePeer) inputMode() world.InputMode { return p.mode }
func (p *fakePeer) awayIgnored()               { p.awaysIgnored++ }
func (p *fakePeer) takeAway() (uint32, bool) {
	last, ok := p.away, p.awaySent
	p.away, p.awaySent = 0, false
	return last, ok
}
func (p *fakePeer) inputArrival(tick uint32) (time.Duration, bool) {
	at, ok := p.arrived[tick]
	return at, ok
}

func decodeFrame(frame []byte) *tankv1.ServerMessage {
	m := new(tankv1.ServerMessage)
	if err := transport.NewFrameReader(bytes.NewReader(frame)).Read(m); err != nil {
		panic(err) // the world only ever encodes valid frames
	}
	return m
}

func newTestWorld(t *testing.T, mutate func(*Config)) *game {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Rules.Contact = netcode.ContactOff
	cfg.Lane = wire.LaneReliable // whole snapshot frames, which most tests read; chunks_test covers the other lane
	if mutate != nil {
		mutate(&cfg)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	return newGame(&cfg, discardLogger(), new(counters))
}

func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// quietServer returns a server for the default config that logs nowhere, not yet serving.
func quietServer(t testing.TB) *Server {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Logger = discardLogger()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustJoin(t *testing.T, w *game, now time.Duration, name string) (*player, *fakePeer) {
	t.Helper()
	fp := new(fakePeer)
	p, reject := w.join(now, name, fp)
	if reject != nil {
		t.Fatalf("join(%q) rejected: %v", name, reject)
	}
	return p, fp
}

func steps(first uint32, n int, in netcode.Input, d time.Duration) []netcode.PendingInput {
	var out []netcode.PendingInput
	for i := range n {
		out = append(out, netcode.PendingInput{Tick: first + uint32(i), Input: in, Duration: d})
	}
	return out
}

func TestWorld_AppliesInputsInOrderLikeReplay(t *testing.T) {
	w := newTestWorld(t, func(c *Config) { c.InputOnArrival = true }) // several inputs a tick
	p, fp := mustJoin(t, w, 0, "ada")
	spawn := p.tank.Pose()
	inputs := append(steps(1, 3, netcode.Input{Turn: 0.5, Throttle: 1}, 50*time.Millisecond),
		netcode.PendingInput{Tick: 4, Input: netcode.Input{Throttle: -1}, Duration: 120 * time.Millisecond})
	fp.inputs = append(fp.inputs, inputs...)
	w.step(time.Second)
	w.step(time.Second + 50*time.Millisecond) // 270 ms of input is more than one tick may simulate

	if want := netcode.Replay(&w.cfg.Arena, spawn, inputs); p.tank.Pose() != want {
		t.Errorf("pose after inputs = %v, want %v (bit-identical to a client replay)", p.tank.Pose(), want)
	}
	snap := decodeFrame(fp.snapshot).GetSnapshot()
	if snap == nil || len(snap.GetPlayers()) != 1 {
		t.Fatalf("snapshot = %v, want one player", snap)
	}
	got := wire.StateFromProto(snap.GetPlayers()[0])
	if got.Ack != 4 || got.Pose != p.tank.Pose() || got.Tick != 2 {
		t.Errorf("snapshot state = %+v, want ack 4, tick 2, pose %v", got, p.tank.Pose())
	}
}

func TestWorld_StaleAndDuplicateInputsIgnored(t *testing.T) {
	w := newTestWorld(t, func(c *Config) { c.InputOnArrival = true }) // both inputs in one tick
	p, fp := mustJoin(t, w, 0, "ada")
	fwd := netcode.Input{Throttle: 1}
	fp.inputs = steps(1, 2, fwd, 50*time.Millisecond)
	w.step(time.Second)
	before := p.tank.Pose()
	fp.inputs = append(steps(1, 2, fwd, 50*time.Millisecond), steps(2, 1, fwd, 50*time.Millisecond)...)
	w.step(2 * time.Second)
	if p.tank.Pose() != before || p.tank.Ack() != 2 {
		t.Errorf("after replayed ticks pose = %v ack %d, want unchanged %v ack 2", p.tank.Pose(), p.tank.Ack(), before)
	}
	if got := w.stats.staleInputs.Load(); got != 3 {
		t.Errorf("stale inputs = %d, want 3", got)
	}
	if fp.kicked != "" {
		t.Errorf("stale inputs kicked the player: %q", fp.kicked)
	}
}

func TestWorld_TimeBudgetDefersSpeedHack(t *testing.T) {
	w := newTestWorld(t, nil)
	p, fp := mustJoin(t, w, 0, "cheat")
	fp.inputs = steps(1, 20, netcode.Input{Throttle: 1}, 200*time.Millisecond) // 4 s of driving at once
	w.step(100 * time.Millisecond)
	// Budget: 100 ms elapsed + 250 ms slack = 350 ms, so one 200 ms input fits, two do not.
	if p.tank.Ack() != 1 || p.tank.Granted() != 200*time.Millisecond {
		t.Fatalf("after 100ms: ack %d granted %v, want ack 1 granted 200ms", p.tank.Ack(), p.tank.Granted())
	}
	if p.tank.Waiting() != 19 {
		t.Errorf("queued inputs = %d, want 19 waiting", p.tank.Waiting())
	}
	for now := 150 * time.Millisecond; now <= 4*time.Second; now += 50 * time.Millisecond {
		w.step(now)
		if limit := now + w.cfg.TimeSlack; p.tank.Granted() > limit {
			t.Fatalf("at %v granted %v, more than wall time plus slack %v", now, p.tank.Granted(), limit)
		}
	}
	if p.tank.Ack() != 20 {
		t.Errorf("after 4s: ack %d, want 20 (all applied once time allows)", p.tank.Ack())
	}
	if fp.kicked != "" {
		t.Errorf("deferred inputs kicked the player: %q", fp.kicked)
	}
}

func TestWorld_SavedTimeSpentAtBoundedRate(t *testing.T) {
	w := newTestWorld(t, nil)
	p, fp := mustJoin(t, w, 0, "idler")
	w.step(time.Minute) // a minute of sending nothing
	fp.inputs = steps(1, 100, netcode.Input{Throttle: 1}, 50*time.Millisecond)
	for i := range 10 {
		before := p.tank.Granted()
		w.step(time.Minute + time.Duration(i+1)*50*time.Millisecond)
		if spent := p.tank.Granted() - before; spent != w.cfg.MaxSimPerTick {
			t.Fatalf("tick %d simulated %v, want exactly the %v cap", i, spent, w.cfg.MaxSimPerTick)
		}
	}
	if p.tank.Ack() != 40 {
		t.Errorf("after 10 ticks ack = %d, want 40 (4 inputs a tick)", p.tank.Ack())
	}
}

func TestWorld_DropsOnlyTheOffender(t *testing.T) {
	tests := []struct {
		name string
		in   netcode.PendingInput
	}{
		{"NaN", netcode.PendingInput{Tick: 1, Input: netcode.Input{Turn: math.NaN()}, Duration: 50 * time.Millisecond}},
		{"far future tick", netcode.PendingInput{Tick: 1000, Input: netcode.Input{}, Duration: 50 * time.Millisecond}},
		{"huge duration", netcode.PendingInput{Tick: 1, Input: netcode.Input{}, Duration: time.Hour}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newTestWorld(t, nil)
			good, goodPeer := mustJoin(t, w, 0, "good")
			bad, badPeer := mustJoin(t, w, 0, "bad")
			goodPeer.inputs = steps(1, 1, netcode.Input{Throttle: 1}, 50*time.Millisecond)
			badPeer.inputs = []netcode.PendingInput{tt.in}
			rec := w.step(time.Second)

			if badPeer.kicked == "" || badPeer.kickCode != wire.DisconnectProtocolError {
				t.Fatalf("bad input %+v: kicked %q with code %v, want a protocol error", tt.in, badPeer.kicked, badPeer.kickCode)
			}
			if len(rec.Dropped) != 1 || rec.Dropped[0] != bad.tank.ID() {
				t.Errorf("tick record dropped = %v, want [%d]", rec.Dropped, bad.tank.ID())
			}
			if goodPeer.kicked != "" || good.tank.Ack() != 1 {
				t.Errorf("good player: kicked %q ack %d, want playing with ack 1", goodPeer.kicked, good.tank.Ack())
			}
			left := goodPeer.control[len(goodPeer.control)-1].GetRosterUpdate().GetLeft()
			if len(left) != 1 {
				t.Fatalf("good player's last control message lists %d leaving, want 1", len(left))
			}
			if last := left[0]; last.GetPlayerId() != bad.tank.ID() || last.GetReason() != badPeer.kicked {
				t.Errorf("good player told %v, want PlayerLeft{%d, %q}", last, bad.tank.ID(), badPeer.kicked)
			}
			if snap := decodeFrame(goodPeer.snapshot).GetSnapshot(); len(snap.GetPlayers()) != 1 {
				t.Errorf("snapshot after drop has %d players, want 1", len(snap.GetPlayers()))
			}
		})
	}
}

func TestWorld_JoinSendsWelcomeAndRoster(t *testing.T) {
	w := newTestWorld(t, nil)
	first, fp1 := mustJoin(t, w, 0, "ada")
	second, fp2 := mustJoin(t, w, 0, "bob")

	welcome := fp2.control[0].GetWelcome()
	if welcome.GetPlayerId() != second.tank.ID() || welcome.GetTickIntervalMs() != 50 || welcome.GetMaxInputLead() != 120 {
		t.Errorf("welcome = %v", welcome)
	}
	arena, err := wire.ArenaFromProto(welcome.GetArena())
	if err != nil || arena.Speed != w.cfg.Arena.Speed || len(arena.Obstacles) != len(w.cfg.Arena.Obstacles) {
		t.Errorf("welcome arena = %+v, %v; want the server's", arena, err)
	}
	if len(fp2.control) != 2 {
		t.Fatalf("newcomer got %d control messages, want Welcome and one roster", len(fp2.control))
	}
	var roster []uint32
	for _, j := range fp2.control[1].GetRosterUpdate().GetJoined() {
		roster = append(roster, j.GetPlayerId())
	}
	if len(roster) != 2 || roster[0] != first.tank.ID() || roster[1] != second.tank.ID() {
		t.Errorf("newcomer roster = %v, want [%d %d]", roster, first.tank.ID(), second.tank.ID())
	}
	before := len(fp1.control)
	w.step(50 * time.Millisecond) // others hear of a join at the end of the tick
	if len(fp1.control) != before+1 {
		t.Fatalf("existing player got %d control messages in the tick, want one roster update", len(fp1.control)-before)
	}
	if got := fp1.control[before].GetRosterUpdate().GetJoined(); len(got) != 1 || got[0].GetPlayerId() != second.tank.ID() || got[0].GetName() != "bob" {
		t.Errorf("existing player told %v, want PlayerJoined{%d bob}", got, second.tank.ID())
	}
	if n := len(fp2.control); n != 2 {
		t.Errorf("newcomer got %d control messages after the tick, want no repeat of its own roster", n)
	}
	if first.tank.Pose().Distance(second.tank.Pose()) < 4*w.cfg.Arena.TankRadius {
		t.Errorf("spawns %v and %v overlap", first.tank.Pose(), second.tank.Pose())
	}
}

func TestWorld_ServerFullRejects(t *testing.T) {
	w := newTestWorld(t, func(c *Config) { c.MaxPlayers = 1 })
	mustJoin(t, w, 0, "ada")
	if _, reject := w.join(0, "bob", new(fakePeer)); reject == nil || reject.Code != wire.RejectServerFull {
		t.Errorf("join beyond max players: reject %v, want SERVER_FULL", reject)
	}
}

func TestWorld_SnapshotEncodedOnceForEveryone(t *testing.T) {
	w := newTestWorld(t, nil)
	_, fp1 := mustJoin(t, w, 0, "ada")
	_, fp2 := mustJoin(t, w, 0, "bob")
	w.step(50 * time.Millisecond)
	if len(fp1.snapshot) == 0 || &fp1.snapshot[0] != &fp2.snapshot[0] {
		t.Error("players got different snapshot buffers, want one shared encoding")
	}
	snap := decodeFrame(fp1.snapshot).GetSnapshot()
	if ids := snap.GetPlayers(); len(ids) != 2 || ids[0].GetPlayerId() >= ids[1].GetPlayerId() {
		t.Errorf("snapshot players %v, want two in increasing id order", ids)
	}
}

func TestWorld_Contact(t *testing.T) {
	// Two tanks that send no push, 0.5 apart: they overlap by 0.7, more than a radius (0.6).
	r := netcode.DefaultArena().TankRadius
	for _, tt := range []struct {
		mode netcode.ContactMode
		want float64 // their distance after a tick
	}{
		{netcode.ContactServer, 2 * r},    // pushed apart
		{netcode.ContactPredicted, 2 * r}, // past MaxPredictedOverlap: pushed apart too
		{netcode.ContactOff, 0.5},         // untouched
	} {
		w := newTestWorld(t, func(c *Config) { c.Rules.Contact = tt.mode })
		a, _ := mustJoin(t, w, 0, "a")
		b, _ := mustJoin(t, w, 0, "b")
		placeAt(w, a, netcode.Pose{X: 20, Y: 3})
		placeAt(w, b, netcode.Pose{X: 20.5, Y: 3})
		w.step(50 * time.Millisecond)
		if d := a.tank.Pose().Distance(b.tank.Pose()); math.Abs(d-tt.want) > 2*netcode.GridUnit { // both snapped to the wire grid
			t.Errorf("contact %v: tanks %v apart, want %v", tt.mode, d, tt.want)
		}
	}
}

func TestWorld_LeaveTellsOthers(t *testing.T) {
	w := newTestWorld(t, nil)
	a, _ := mustJoin(t, w, 0, "a")
	_, fpB := mustJoin(t, w, 0, "b")
	w.leave(a.tank.ID(), "goodbye: done")
	w.leave(a.tank.ID(), "again") // unknown id: nothing happens
	w.step(50 * time.Millisecond)
	left := fpB.control[len(fpB.control)-1].GetRosterUpdate().GetLeft()
	if len(left) != 1 || left[0].GetPlayerId() != a.tank.ID() || left[0].GetReason() != "goodbye: done" {
		t.Errorf("PlayerLeft = %v", left)
	}
	if len(w.players()) != 1 {
		t.Errorf("players = %d, want 1", len(w.players()))
	}
}

// Whatever a client sends, one tick applies at most maxInputsPerTick of its inputs: a client
// sending 1 ms moves as fast as the input lead allows gets 4 of them a tick, so what it
// costs the server's simulation and recording per second is bounded like an honest one's.
func TestWorld_TinyMovesAppliedAtMostFourATick(t *testing.T) {
	w := newTestWorld(t, nil)
	p, fp := mustJoin(t, w, 0, "tiny")
	wc := w.world.Config()
	limit := wc.MaxInputsPerTick()
	if limit != 4 {
		t.Fatalf("maxInputsPerTick = %d, want 4 (200 ms of 50 ms inputs)", limit)
	}
	next := uint32(0)
	applied := 0
	for tick := range 200 {
		for next < p.tank.Ack()+w.cfg.inputLead() { // as many 1 ms moves as rule 4 lets through
			next++
			fp.inputs = append(fp.inputs, netcode.PendingInput{Tick: next, Input: netcode.Input{Turn: 1, Throttle: 1}, Duration: time.Millisecond})
		}
		rec := w.step(time.Duration(tick+1) * netcode.StepInterval)
		if fp.kicked != "" {
			t.Fatalf("tick %d: dropped: %s", tick, fp.kicked)
		}
		if len(rec.Applied) > limit {
			t.Fatalf("tick %d applied %d inputs of one player, want at most %d", tick, len(rec.Applied), limit)
		}
		applied += len(rec.Applied)
	}
	if applied != 200*limit {
		t.Errorf("%d inputs applied in 200 ticks, want %d: the flood is served at the cap, not starved", applied, 200*limit)
	}
}

// placeAt puts p's tank at pose, as a placement.
func placeAt(w *game, p *player, pose netcode.Pose) {
	if _, err := w.world.Place(p.tank.ID(), pose); err != nil {
		panic(err)
	}
}
