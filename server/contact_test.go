package server

import (
	"testing"
	"time"

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
