package server

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"tanknet/netcode"
	"tanknet/transport"
	"tanknet/wire"
)

// rosterOf returns the ids joined and left across msgs' roster updates, in order.
func rosterOf(fp *fakePeer) (joined, left []uint32) {
	for _, m := range fp.control {
		for _, j := range m.GetRosterUpdate().GetJoined() {
			joined = append(joined, j.GetPlayerId())
		}
		for _, l := range m.GetRosterUpdate().GetLeft() {
			left = append(left, l.GetPlayerId())
		}
	}
	return joined, left
}

// TestWorld_ChurnCoalescedIntoOneUpdatePerTick drives 25 joins and 25 leaves into every
// tick (500 a second) and checks a bystander gets one roster message per tick, however busy.
func TestWorld_ChurnCoalescedIntoOneUpdatePerTick(t *testing.T) {
	w := newTestWorld(t, func(c *Config) { c.MaxPlayers = 64 })
	_, honest := mustJoin(t, w, 0, "honest")
	honest.control = honest.control[:0]
	var churn []*player
	now := time.Duration(0)
	wantJoined, wantLeft := 0, 0
	for tick := range 40 {
		for i := range 25 {
			p, _ := mustJoin(t, w, now, fmt.Sprintf("churn-%d-%d", tick, i))
			churn = append(churn, p)
			wantJoined++
		}
		for _, p := range churn[:25] {
			w.leave(p.tank.ID(), "goodbye: churn")
			wantLeft++
		}
		churn = churn[25:]
		before := len(honest.control)
		now += netcode.StepInterval
		w.step(now)
		if got := len(honest.control) - before; got != 1 {
			t.Fatalf("tick %d: bystander got %d control messages, want exactly one roster update", tick, got)
		}
	}
	joined, left := rosterOf(honest)
	if len(joined) != wantJoined || len(left) != wantLeft {
		t.Errorf("bystander heard %d joins and %d leaves, want %d and %d", len(joined), len(left), wantJoined, wantLeft)
	}
	if honest.kicked != "" {
		t.Errorf("bystander kicked: %q", honest.kicked)
	}
}

// TestWorld_JoinerHearsOnlyLaterChanges: a player joining mid-tick has the roster as it was
// then; the tick's update tells it only what changed after.
func TestWorld_JoinerHearsOnlyLaterChanges(t *testing.T) {
	w := newTestWorld(t, nil)
	a, _ := mustJoin(t, w, 0, "a")
	b, fpB := mustJoin(t, w, 0, "b")
	c, _ := mustJoin(t, w, 0, "c")
	w.leave(a.tank.ID(), "goodbye")
	w.step(netcode.StepInterval)
	joined, left := rosterOf(fpB)
	want := fmt.Sprint([]uint32{a.tank.ID(), b.tank.ID(), c.tank.ID()}, []uint32{a.tank.ID()})
	if got := fmt.Sprint(joined, left); got != want {
		t.Errorf("b heard joins, leaves %s; want %s (its roster, then c joining and a leaving)", got, want)
	}
}

// TestWorld_LargeRosterChangesSplit: a tick in which 200 players with long reasons leave is
// told in several frames, each within the budget and the frame limit.
func TestWorld_LargeRosterChangesSplit(t *testing.T) {
	w := newTestWorld(t, func(c *Config) { c.MaxPlayers = 256 })
	var ps []*player
	for i := range 201 {
		p, _ := mustJoin(t, w, 0, strings.Repeat("n", maxNameBytes-3)+fmt.Sprint(i))
		ps = append(ps, p)
	}
	w.step(netcode.StepInterval)
	stay := ps[200]
	fp := stay.peer.(*fakePeer)
	fp.control = fp.control[:0]
	for _, p := range ps[:200] {
		w.leave(p.tank.ID(), strings.Repeat("r", 500))
	}
	frames := w.encodeRoster(w.changes)
	w.step(2 * netcode.StepInterval)
	if len(fp.control) < 2 {
		t.Errorf("200 long leaves came in %d frame(s), want them split", len(fp.control))
	}
	for _, f := range frames {
		if len(f.frame) > rosterFrameBudget+maxReasonBytes+rosterEntryOverhead {
			t.Errorf("roster frame of %d bytes, want at most about %d", len(f.frame), rosterFrameBudget)
		}
	}
	if _, left := rosterOf(fp); len(left) != 200 {
		t.Errorf("stayer heard %d leaves, want 200", len(left))
	}
}

// TestSession_FullServerFitsQueues seats 256 players in one tick on real sessions (whose
// writers are not running, as behind a frozen page's blocked write) and churns one seat a
// tick for 120 ticks, longer than the control queue holds one frame a tick (104): the roster
// updates waiting merge, so nobody's queue overflows, and what a player's queue says, read
// in order, is the game's roster as it now is.
func TestSession_FullServerFitsQueues(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxPlayers = 256
	w := newGame(&cfg, discardLogger(), new(counters))
	var sessions []*session
	join := func(name string) *player {
		s := newSession(nil, &cfg, new(counters), newServerClock(time.Now()))
		p, reject := w.join(0, strings.Repeat("x", maxNameBytes-3)+name, s)
		if reject != nil {
			t.Fatal(reject)
		}
		sessions = append(sessions, s)
		return p
	}
	for i := range cfg.MaxPlayers {
		join(fmt.Sprint(i))
	}
	w.step(netcode.StepInterval)
	churner := w.players()[0].tank.ID()
	const ticks = 120
	for tick := range ticks { // no writer all along
		w.leave(churner, "churn")
		churner = join(fmt.Sprint("c", tick)).tank.ID()
		w.step(time.Duration(tick+2) * netcode.StepInterval)
	}
	stayers := append(sessions[1:cfg.MaxPlayers:cfg.MaxPlayers], sessions[len(sessions)-1])
	for i, s := range stayers {
		if got := s.kickReason(); got.dropping() {
			t.Fatalf("player %d kicked: %q", i+2, got)
		}
	}
	want := map[uint32]bool{}
	for _, p := range w.players() {
		want[p.tank.ID()] = true
	}
	for _, s := range []*session{sessions[1], sessions[len(sessions)-1]} { // a stayer, the newest joiner
		heard := map[uint32]bool{}
		for _, c := range s.control {
			upd := decodeFrame(c.frame).GetRosterUpdate()
			for _, j := range upd.GetJoined() {
				if heard[j.GetPlayerId()] {
					t.Fatalf("player %d heard twice", j.GetPlayerId())
				}
				heard[j.GetPlayerId()] = true
			}
			for _, l := range upd.GetLeft() {
				if !heard[l.GetPlayerId()] {
					t.Fatalf("told that player %d left before it was told it joined", l.GetPlayerId())
				}
				delete(heard, l.GetPlayerId())
			}
		}
		if !maps.Equal(heard, want) {
			t.Errorf("the queued roster updates leave %d players, want the game's %d", len(heard), len(want))
		}
		if len(s.control) > 8 {
			t.Errorf("%d control frames queued after %d ticks of churn, want the roster updates merged", len(s.control), ticks)
		}
	}
}

// TestWorld_FullServerRosterReachesJoinerInOneFrame: the 256th player to join a server of
// 256, every name short as a bot's ("burst-17"), hears of all 256 in the one RosterUpdate
// that follows its Welcome. (TestJoins_BurstWhileSilentFloodContained joins fewer over real
// sockets; BenchmarkJoins_BurstOf256WhileSilentFlood times this many.)
func TestWorld_FullServerRosterReachesJoinerInOneFrame(t *testing.T) {
	const players = 256
	w := newTestWorld(t, func(c *Config) { c.MaxPlayers = players })
	var last *fakePeer
	for i := range players {
		_, last = mustJoin(t, w, 0, fmt.Sprintf("burst-%d", i))
	}
	if len(last.control) != 2 {
		t.Fatalf("the last joiner got %d control messages, want its Welcome and one roster", len(last.control))
	}
	if got := len(last.control[1].GetRosterUpdate().GetJoined()); got != players {
		t.Errorf("the last joiner's roster lists %d players, want %d", got, players)
	}
}

// Roster updates waiting in a session's queue merge only while the merged update stays within
// rosterFrameBudget, only with a RosterUpdate queued last (never across another message), and
// one whose players all came and went unheard leaves nothing queued.
func TestSession_WaitingRosterUpdatesMergeWithinTheBudget(t *testing.T) {
	cfg := DefaultConfig()
	s := newSession(nil, &cfg, new(counters), newServerClock(time.Now()))
	roster := func(upd wire.Roster) {
		f, err := transport.AppendFrame(nil, wire.ServerMessageToProto(upd))
		if err != nil {
			t.Fatal(err)
		}
		s.sendRoster(controlFrame{frame: f, roster: &upd})
	}
	long := strings.Repeat("r", 5000)
	roster(wire.Roster{Left: []wire.Departure{{ID: 1, Reason: long}}})
	roster(wire.Roster{Left: []wire.Departure{{ID: 2, Reason: long}}})
	if len(s.control) != 2 {
		t.Fatalf("two 5 KB updates: %d frames queued, want 2 (merged they pass the budget)", len(s.control))
	}
	roster(wire.Roster{Joined: []wire.Player{{ID: 7, Name: "seven"}}})
	roster(wire.Roster{Left: []wire.Departure{{ID: 7, Reason: "goodbye"}}})
	if len(s.control) != 2 || len(decodeFrame(s.control[1].frame).GetRosterUpdate().GetJoined()) != 0 {
		t.Fatalf("a player who came and went unheard: %d frames queued, want the 2 before it, with no join", len(s.control))
	}
	s.send(encode(discardLogger(), wire.Pong{ClientTimeUs: 1}))
	roster(wire.Roster{Joined: []wire.Player{{ID: 10, Name: "ten"}}})
	roster(wire.Roster{Left: []wire.Departure{{ID: 10, Reason: "goodbye"}}})
	if len(s.control) != 3 {
		t.Fatalf("an update of a player who came and went unheard, after a Pong: %d frames queued, want the 3 before it", len(s.control))
	}
	roster(wire.Roster{Joined: []wire.Player{{ID: 8, Name: "eight"}}})
	roster(wire.Roster{Joined: []wire.Player{{ID: 9, Name: "nine"}}})
	if len(s.control) != 4 {
		t.Fatalf("%d frames queued, want 4: the two long leaves, the Pong, the two joins as one", len(s.control))
	}
	var joined []uint32
	for _, j := range decodeFrame(s.control[3].frame).GetRosterUpdate().GetJoined() {
		joined = append(joined, j.GetPlayerId())
	}
	if fmt.Sprint(joined) != "[8 9]" || decodeFrame(s.control[2].frame).GetPong() == nil {
		t.Errorf("queue ends with a Pong then joins %v, want a Pong then joins [8 9]", joined)
	}
}

// A newcomer's whole roster comes as it was when it joined, itself last, and is never merged
// with the changes after it, though its writer has not taken it yet.
func TestSession_TheWholeRosterComesAsItWas(t *testing.T) {
	cfg := DefaultConfig()
	w := newGame(&cfg, discardLogger(), new(counters))
	join := func(name string) (*player, *session) {
		s := newSession(nil, &cfg, new(counters), newServerClock(time.Now()))
		p, reject := w.join(0, name, s)
		if reject != nil {
			t.Fatal(reject)
		}
		return p, s
	}
	a, _ := join("a")
	b, _ := join("b")
	w.step(netcode.StepInterval)
	c, newcomer := join("c")
	w.leave(a.tank.ID(), "goodbye")
	w.step(2 * netcode.StepInterval)
	var updates []string
	for _, q := range newcomer.control[1:] {
		upd := decodeFrame(q.frame).GetRosterUpdate()
		var joined, left []uint32
		for _, j := range upd.GetJoined() {
			joined = append(joined, j.GetPlayerId())
		}
		for _, l := range upd.GetLeft() {
			left = append(left, l.GetPlayerId())
		}
		updates = append(updates, fmt.Sprint(joined, left))
	}
	want := []string{fmt.Sprint([]uint32{a.tank.ID(), b.tank.ID(), c.tank.ID()}, []uint32(nil)), fmt.Sprint([]uint32(nil), []uint32{a.tank.ID()})}
	if !slices.Equal(updates, want) {
		t.Errorf("the newcomer's roster updates (joined, left) are %v, want %v", updates, want)
	}
}
