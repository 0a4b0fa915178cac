package world

import (
	"testing"
	"time"

	"tanknet/netcode"
)

// The combat tests drive a world as the server does, one tick at a time: tanks join with a
// testClient, each tick every tank is handed one MoveInput (Queue) and any shots (Fire),
// Tick runs, and the verdicts are read from the Outcome's Shots. Being inside the package,
// a test puts tanks where it wants them by setting their pose.

// testConfig is the world a server with its default configuration runs
// (server.DefaultConfig), without tank contact, which no combat test wants.
func testConfig() Config {
	return Config{
		Arena:            netcode.DefaultArena(),
		Rules:            netcode.DefaultRules(),
		MaxPlayers:       16,
		InputLead:        120, // the server's: (IdleTimeout 5 s + 1 s) of ticks
		MaxInputDuration: 200 * time.Millisecond,
		TimeSlack:        250 * time.Millisecond,
		MaxSimPerTick:    200 * time.Millisecond,
		MaxSimPerSecond:  2 * time.Second,
	}
}

// sentState is one tank's state of one tick, as a client may have been sent it.
type sentState struct{ id, tick uint32 }

// testClient stands in for a tank's client: the input mode and round trip it reports, and,
// for interest management, the tank states it was sent, which the test decides.
type testClient struct {
	mode InputMode
	rtt  time.Duration
	// sees decides which tanks of each tick's outcome the client is sent (self is its own
	// tank, whose pose it is sent from); nil sends it every tank. recordSent applies it.
	sees func(self, other *Tank) bool
	sent map[sentState]bool
	asks int // calls of Sent: the world asks only with Config.Interest
}

func (c *testClient) InputMode() InputMode                 { return c.mode }
func (c *testClient) RTT() time.Duration                   { return c.rtt }
func (c *testClient) Arrival(uint32) (time.Duration, bool) { return 0, false }
func (c *testClient) Sent(id, tick uint32) bool {
	c.asks++
	return c.sent[sentState{id, tick}]
}

// recordSent notes what each tank's testClient was sent of the tick the outcome is of, as a
// server's snapshot of that tick would carry it.
func recordSent(w *World, out *Outcome) {
	for _, self := range w.tanks {
		c, ok := self.client.(*testClient)
		if !ok {
			continue
		}
		if c.sent == nil {
			c.sent = map[sentState]bool{}
		}
		for _, other := range w.tanks {
			if c.sees == nil || other == self || c.sees(self, other) {
				c.sent[sentState{other.id, out.Tick}] = true
			}
		}
	}
}

// withinRadius returns a sees that sends a client the tanks no further than radius from its own.
func withinRadius(radius float64) func(self, other *Tank) bool {
	return func(self, other *Tank) bool { return self.pose.Distance(other.pose) <= radius }
}

// runTick runs w's next tick at the server time it is due (tick n at n step intervals, as the
// server's loop runs them) and records what the test clients were sent.
func runTick(w *World) *Outcome {
	out := w.Tick(time.Duration(w.tick+1) * netcode.StepInterval)
	recordSent(w, out)
	return out
}

// mustJoin joins player id at server time 0 with client c.
func mustJoin(t testing.TB, w *World, id uint32, c *testClient) *Tank {
	t.Helper()
	tk, err := w.Join(id, c, 0)
	if err != nil {
		t.Fatalf("join %d: %v", id, err)
	}
	return tk
}

// shotOf returns the last shot of shooter judged in out, and false if there is none.
func shotOf(out *Outcome, shooter uint32) (JudgedShot, bool) {
	for i := len(out.Shots) - 1; i >= 0; i-- {
		if out.Shots[i].Shooter == shooter {
			return out.Shots[i], true
		}
	}
	return JudgedShot{}, false
}

// duel is a world with two players and no spawn protection, driven one tick at a time: a
// shooter and a target (the mark), each sending one input per tick.
type duel struct {
	t                         *testing.T
	w                         *World
	shooter, mark             *Tank
	shooterClient, markClient *testClient
	move, markMove            uint32   // last move tick sent by each
	out                       *Outcome // the last tick's
	judged                    []JudgedShot
	respawns                  uint64 // wrecks brought back, over every tick
}

func newDuel(t *testing.T, mutate func(*Config)) *duel {
	t.Helper()
	cfg := testConfig()
	cfg.Rules.SpawnProtection = 0
	if mutate != nil {
		mutate(&cfg)
	}
	d := &duel{t: t, w: New(cfg), shooterClient: &testClient{}, markClient: &testClient{}}
	d.shooter = mustJoin(t, d.w, 1, d.shooterClient)
	d.mark = mustJoin(t, d.w, 2, d.markClient)
	return d
}

// tick sends one input for each player (the mark drives with markIn) and runs a tick.
func (d *duel) tick(markIn netcode.Input) {
	d.move++
	d.markMove++
	mustQueue(d.t, d.w, d.shooter, netcode.PendingInput{Tick: d.move, Duration: netcode.StepInterval})
	mustQueue(d.t, d.w, d.mark, netcode.PendingInput{Tick: d.markMove, Input: markIn, Duration: netcode.StepInterval})
	d.out = runTick(d.w)
	d.judged = append(d.judged, d.out.Shots...)
	d.respawns += d.out.Counts.Respawns
}

// place puts the shooter at (x, y) facing east and the mark dx further east, and runs a
// tick so the history has them.
func (d *duel) place(x, y, dx float64) {
	d.shooter.pose = netcode.Pose{X: x, Y: y}
	d.mark.pose = netcode.Pose{X: x + dx, Y: y}
	d.tick(netcode.Input{})
}

// fire queues a Fire for the next tick, belonging to the move tick that tick applies,
// runs the tick and returns the shooter's ShotResult.
func (d *duel) fire(lagComp bool, views ...netcode.TankView) netcode.ShotResult {
	d.t.Helper()
	return d.fireReq(netcode.ShotRequest{MoveTick: d.move + 1, LagCompensation: lagComp, Views: views})
}

// fireReq queues req for the next tick, runs it and returns the shooter's ShotResult.
func (d *duel) fireReq(req netcode.ShotRequest) netcode.ShotResult {
	d.t.Helper()
	if !d.w.Fire(d.shooter, req) {
		d.t.Fatalf("Fire %+v dropped", req)
	}
	d.tick(netcode.Input{})
	return d.lastResult()
}

// lastResult is the shooter's last ShotResult of the last tick.
func (d *duel) lastResult() netcode.ShotResult {
	d.t.Helper()
	js, ok := shotOf(d.out, d.shooter.id)
	if !ok {
		d.t.Fatalf("no ShotResult after tick %d", d.w.tick)
	}
	return js.Result
}

// req is a lag-compensated Fire for the move tick the next tick applies, viewing the mark at
// each of views.
func (d *duel) req(views ...netcode.View) netcode.ShotRequest {
	r := netcode.ShotRequest{MoveTick: d.move + 1, LagCompensation: true}
	for _, v := range views {
		r.Views = append(r.Views, netcode.TankView{ID: d.mark.id, View: v})
	}
	return r
}

// heldView is a view of the mark's state in the newest snapshot.
func (d *duel) heldView() netcode.TankView {
	return netcode.TankView{ID: d.mark.id, View: netcode.View{From: d.w.tick, To: d.w.tick}}
}

// wait runs ticks until the cooldown allows another shot.
func (d *duel) wait() {
	for range netcode.Ticks(d.w.cfg.Rules.Cooldown) {
		d.tick(netcode.Input{})
	}
}

// mustQueue queues in for tank and fails the test when the world refuses it.
func mustQueue(tb testing.TB, w *World, tank *Tank, in netcode.PendingInput) {
	tb.Helper()
	if drop := w.Queue(tank, in); drop.Rule != "" {
		tb.Fatalf("the world refused player %d's input %+v: %+v", tank.id, in, drop)
	}
}

// eachArena runs f as a subtest on each arena a sight rule must hold on: the default one,
// without interest management, and the large one, with it (each client is sent only the
// tanks near its own).
func eachArena(t *testing.T, f func(t *testing.T, arena netcode.Arena, interest bool)) {
	for _, a := range []struct {
		name     string
		arena    netcode.Arena
		interest bool
	}{{"default", netcode.DefaultArena(), false}, {"large", netcode.LargeArena(), true}} {
		t.Run(a.name, func(t *testing.T) { f(t, a.arena, a.interest) })
	}
}
