package server

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/netcode"
	"tanknet/wire"
)

// rulesChanges returns the RulesChanged messages among what fp was sent on the stream.
func rulesChanges(t *testing.T, fp *fakePeer) []wire.RulesChanged {
	t.Helper()
	var out []wire.RulesChanged
	for _, m := range fp.control {
		if m.GetRulesChanged() == nil {
			continue
		}
		rc, err := wire.RulesChangedFromProto(m.GetRulesChanged())
		if err != nil {
			t.Fatalf("the server sent a RulesChanged a client refuses: %v", err)
		}
		out = append(out, rc)
	}
	return out
}

// TestRoom_ContactSwitchedBetweenTicks: a room asked for another contact mode takes it
// before its next tick, tells every player once (RulesChanged: the rules whole, from the
// next tick), ticks under it, and seats a newcomer with it in its Welcome; asked again for
// the mode it plays, it tells nobody anything.
func TestRoom_ContactSwitchedBetweenTicks(t *testing.T) {
	g := newTestWorld(t, func(c *Config) { c.Rules.Contact = netcode.ContactPredicted })
	r := &room{name: DefaultRoom}
	r.contact.Store(uint32(netcode.ContactPredicted))
	_, ada := mustJoin(t, g, 0, "ada")
	_, bob := mustJoin(t, g, 0, "bob")
	for i := range 3 {
		r.takeContact(g)
		g.step(time.Duration(i) * netcode.StepInterval)
	}
	if got := len(rulesChanges(t, ada)); got != 0 {
		t.Fatalf("%d RulesChanged before any change, want none", got)
	}

	r.contact.Store(uint32(netcode.ContactServer))
	r.takeContact(g)
	rec := g.step(3 * netcode.StepInterval)
	want := g.cfg.Rules
	want.Contact = netcode.ContactServer
	for name, fp := range map[string]*fakePeer{"ada": ada, "bob": bob} {
		got := rulesChanges(t, fp)
		if len(got) != 1 || got[0].Rules != want || got[0].FromTick != 4 {
			t.Errorf("%s was told %+v, want one RulesChanged with contact server from tick 4", name, got)
		}
	}
	if rec.Contact != netcode.ContactServer || rec.Tick != 4 {
		t.Errorf("tick %d ran under contact %v, want tick 4 under server", rec.Tick, rec.Contact)
	}

	_, cy := mustJoin(t, g, 4*netcode.StepInterval, "cy")
	welcome, err := wire.WelcomeFromProto(cy.control[0].GetWelcome())
	if err != nil || welcome.Rules.Contact != netcode.ContactServer {
		t.Errorf("a newcomer's Welcome: %+v, %v; want contact server", welcome.Rules, err)
	}

	r.takeContact(g) // still server: nothing to tell
	g.step(4 * netcode.StepInterval)
	if got := len(rulesChanges(t, ada)); got != 1 {
		t.Errorf("%d RulesChanged after asking for the mode the room plays, want still 1", got)
	}
}

// TestServer_SetContactRefuses: SetContact names an open room and a mode a client can
// play; anything else is an error and changes nothing.
func TestServer_SetContactRefuses(t *testing.T) {
	cfg := DefaultConfig()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.rooms.mu.Lock()
	r := s.openRoom(DefaultRoom)
	s.rooms.running.Done() // no goroutine runs it here
	s.rooms.mu.Unlock()
	for name, tc := range map[string]struct {
		room string
		mode netcode.ContactMode
		ok   bool
	}{
		"the default room by name": {DefaultRoom, netcode.ContactServer, true},
		"the default room as \"\"": {"", netcode.ContactOff, true},
		"a room not open":          {"blue", netcode.ContactServer, false},
		"unspecified":              {"", netcode.ContactUnspecified, false},
		"a mode past predicted":    {"", netcode.ContactPredicted + 1, false},
	} {
		before := r.contact.Load()
		err := s.SetContact(tc.room, tc.mode)
		if (err == nil) != tc.ok {
			t.Errorf("%s: SetContact(%q, %v) = %v, want ok %v", name, tc.room, tc.mode, err, tc.ok)
		}
		if got := netcode.ContactMode(r.contact.Load()); tc.ok && got != tc.mode || !tc.ok && got != netcode.ContactMode(before) {
			t.Errorf("%s: the room is asked for %v", name, got)
		}
	}
}

// TestLockstep_ContactSwitchedDuringTheMatch plays two real client.Games against the room's
// world over 30 ms links in virtual time while the room's contact mode goes predicted (0-4
// s), server (4-8 s), predicted (8-12 s). In each phase their tanks back away from each other
// for a second, while the switch reaches the clients, then drive head on into each other. Each
// client takes the mode from the RulesChanged it is sent: with contact predicted it pushes
// its own tank (netcode.LocalCounters.Pushes grows) and no reconciliation moves its
// prediction; with contact server it sends no push, the server shoves the tanks apart, and
// its reconciliations correct it. A second after switching back, prediction is exact again.
func TestLockstep_ContactSwitchedDuringTheMatch(t *testing.T) {
	g := newTestWorld(t, func(c *Config) { c.Rules.Contact = netcode.ContactPredicted })
	r := &room{name: DefaultRoom}
	r.contact.Store(uint32(netcode.ContactPredicted))
	epoch := time.Unix(5000, 0)
	var now time.Duration
	type player struct {
		peer *lockPeer
		game *client.Game
	}
	var players []player
	for i, x := range []float64{17, 23} { // on the row y = 3, clear of every obstacle
		rng := rand.New(rand.NewPCG(uint64(i)+1, 9))
		peer := &lockPeer{now: &now, epoch: epoch, arrived: map[uint32]time.Duration{},
			up:   streamLink{rng: rng, latency: 30 * time.Millisecond, jitter: 2 * time.Millisecond},
			down: streamLink{rng: rng, latency: 30 * time.Millisecond, jitter: 2 * time.Millisecond}}
		p, reject := g.join(now, "rammer", peer)
		if reject != nil {
			t.Fatalf("join rejected: %v", reject)
		}
		if _, err := g.world.Place(p.tank.ID(), netcode.Pose{X: x, Y: 3, Heading: float64(i) * math.Pi}); err != nil {
			t.Fatal(err)
		}
		peer.welcome = wire.Welcome{PlayerID: p.tank.ID(), Arena: g.cfg.Arena, Rules: g.world.Config().Rules, Lane: wire.LaneReliable, MaxInputLead: g.cfg.inputLead()}
		players = append(players, player{peer, client.NewGame(peer, client.DefaultOptions(), epoch)})
	}
	type phase struct {
		mode               netcode.ContactMode
		pushes, residuals  int // grown in the phase's settled part (after its first second), both players
		told               bool
		startP, startR     [2]int
		settledP, settledR [2]int
	}
	phases := []*phase{{mode: netcode.ContactPredicted}, {mode: netcode.ContactServer}, {mode: netcode.ContactPredicted}}
	const phaseLen = 4 * time.Second
	counters := func(i int) (pushes, residuals int) {
		if l := players[i].game.Local(); l != nil {
			c := l.Counters()
			return c.Pushes, c.NonZeroResiduals
		}
		return 0, 0
	}
	nextTick := netcode.StepInterval
	for now = 0; now < 3*phaseLen; now += time.Millisecond {
		ph := phases[now/phaseLen]
		if now%phaseLen == time.Second { // settled: the RulesChanged has arrived, the old mode's inputs are applied
			for i := range players {
				ph.settledP[i], ph.settledR[i] = counters(i)
			}
		}
		if now >= nextTick {
			nextTick += netcode.StepInterval
			r.contact.Store(uint32(ph.mode))
			r.takeContact(g)
			g.step(now)
		}
		in := netcode.Input{Throttle: 1}
		if now%phaseLen < time.Second {
			in.Throttle = -1 // apart while the switch reaches the clients, then head on again
		}
		for _, p := range players {
			if now%17 == 0 { // about 60 frames a second
				if err := p.game.Update(epoch.Add(now), in); err != nil {
					t.Fatal(err)
				}
			}
		}
		if now%phaseLen == phaseLen-time.Millisecond {
			for i, p := range players {
				pu, re := counters(i)
				ph.pushes += pu - ph.settledP[i]
				ph.residuals += re - ph.settledR[i]
				ph.told = ph.told || p.game.Rules().Contact != ph.mode
			}
		}
	}
	for i, ph := range phases {
		t.Logf("phase %d, contact %v: %d pushes, %d reconciliations that moved a prediction", i+1, ph.mode, ph.pushes, ph.residuals)
		if ph.told {
			t.Errorf("phase %d: a client plays by another contact mode than %v at its end", i+1, ph.mode)
		}
		switch ph.mode {
		case netcode.ContactPredicted:
			if ph.pushes == 0 || ph.residuals != 0 {
				t.Errorf("phase %d, contact predicted: %d pushes, %d moved predictions; want pushes and exact predictions", i+1, ph.pushes, ph.residuals)
			}
		case netcode.ContactServer:
			if ph.pushes != 0 || ph.residuals == 0 {
				t.Errorf("phase %d, contact server: %d pushes, %d moved predictions; want no push and corrections", i+1, ph.pushes, ph.residuals)
			}
		}
	}
	for _, p := range players {
		if got := p.game.Stats().RulesChanges; got != 2 {
			t.Errorf("a client was told of %d rules changes, want 2", got)
		}
	}
}
