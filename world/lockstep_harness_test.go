package world_test

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"tanknet/netcode"
	"tanknet/world"
)

// The lockstep world: the authoritative world (package world, the one the server runs),
// client netcode and a seeded model of a KCP link, all advanced by one loop at 60 frames per
// second. No sockets, no sleeps, no wall
// clock: a failing seed replays exactly. The tests that drive it are in lockstep_test.go.

const fps60 = time.Second / 60

// link is one direction of one KCP stream: reliable and ordered. A packet takes the one-way
// latency plus up to jitter; a lost one is sent again one RTO later (and may be lost again),
// and since the stream is ordered everything sent after it waits and then arrives at once.
type link[T any] struct {
	rng             *rand.Rand
	latency, jitter time.Duration
	rto             time.Duration
	loss            float64
	last            time.Duration // delivery time of the previous packet
	queue           []delivery[T]
}

type delivery[T any] struct {
	at  time.Duration
	msg T
}

func (l *link[T]) send(now time.Duration, msg T) {
	at := now + l.latency
	if l.jitter > 0 {
		at += time.Duration(l.rng.Int64N(int64(l.jitter)))
	}
	for l.rng.Float64() < l.loss {
		at += l.rto
	}
	at = max(at, l.last)
	l.last = at
	l.queue = append(l.queue, delivery[T]{at, msg})
}

// recv returns, in order, every message delivered by now.
func (l *link[T]) recv(now time.Duration) []T {
	var out []T
	for len(l.queue) > 0 && l.queue[0].at <= now {
		out = append(out, l.queue[0].msg)
		l.queue = l.queue[1:]
	}
	return out
}

// profile is a network condition, the same both ways.
type profile struct {
	name   string
	rtt    time.Duration
	jitter time.Duration // extra one-way delay, uniform in [0, jitter)
	loss   float64       // chance a packet needs a retransmission
}

func (p profile) rto() time.Duration { return p.rtt + 4*p.jitter + 50*time.Millisecond }

// server is package world applying each MoveInput as it arrives (the server's "on arrival"
// mode, within its time budget), ticking every 50 ms, and remembering every tick's poses as
// ground truth.
type server struct {
	world   *world.World
	tanks   []*world.Tank    // by player index; player i has id i+1
	history [][]netcode.Pose // history[k] = poses in the snapshot of tick k
	touches int              // tank pairs the world pushed apart (contact resolved by the server)
	pushes  int              // clients' pushes the world applied (contact predicted)
	refused int              // clients' pushes the world refused
	// deepest is the deepest overlap of two tanks in any tick's snapshot, world units.
	deepest float64
}

// lockstepConfig is the world of the lockstep tests: the default arena and the server's
// default input limits, inputs applied on arrival.
func lockstepConfig(a netcode.Arena, contact netcode.ContactMode, players int) world.Config {
	rules := netcode.DefaultRules()
	rules.Contact = contact
	return world.Config{Arena: a, Rules: rules, MaxPlayers: players,
		InputOnArrival: true, InputLead: 120, MaxInputDuration: 200 * time.Millisecond,
		TimeSlack: 250 * time.Millisecond, MaxSimPerTick: 200 * time.Millisecond, MaxSimPerSecond: 2 * time.Second}
}

// newServer places one tank per start pose in a new world.
func newServer(t *testing.T, a netcode.Arena, contact netcode.ContactMode, starts []netcode.Pose) *server {
	s := &server{world: world.New(lockstepConfig(a, contact, len(starts))), history: [][]netcode.Pose{starts}}
	for i, p := range starts {
		if _, err := s.world.Join(uint32(i+1), nil, 0); err != nil {
			t.Fatal(err)
		}
		tank, err := s.world.Place(uint32(i+1), p)
		if err != nil {
			t.Fatal(err)
		}
		s.tanks = append(s.tanks, tank)
	}
	return s
}

// apply hands the world one MoveInput of player's.
func (s *server) apply(t *testing.T, player int, in netcode.PendingInput) {
	if drop := s.world.Queue(s.tanks[player], in); drop.Rule != "" {
		t.Fatalf("the world refused player %d's input: %+v", player, drop)
	}
}

// step runs one tick at now and returns every tank's state as its snapshot carries it.
func (s *server) step(t *testing.T, now time.Duration) []netcode.State {
	o := s.world.Tick(now)
	s.touches += int(o.Counts.Contacts)
	s.pushes += int(o.Counts.Pushes)
	for r, n := range o.Counts.PushesRefused {
		s.refused += int(n)
		if n > 0 {
			t.Logf("tick %d: %d pushes refused: %s", o.Tick, n, world.PushRefusal(r).Label())
		}
	}
	arena := s.world.Config().Arena
	for i, p := range o.Poses {
		for _, q := range o.Poses[i+1:] {
			s.deepest = max(s.deepest, netcode.Overlap(&arena, p, q))
		}
	}
	s.history = append(s.history, append([]netcode.Pose(nil), o.Poses...))
	out := make([]netcode.State, len(o.Poses))
	for i, p := range o.Poses {
		// What travels is the wire grid's integers, decoded by the client: the residual
		// stays 0 only because the server stores exactly these values.
		out[i] = netcode.State{Tick: o.Tick, Pose: netcode.ToGrid(p).Pose(), Ack: o.Acks[i]}
	}
	return out
}

// truth returns player p's server pose at the fractional tick f.
func (s *server) truth(p int, f float64) netcode.Pose {
	k := int(math.Floor(f))
	if k+1 >= len(s.history) {
		return s.history[k][p]
	}
	return netcode.Lerp(s.history[k][p], s.history[k+1][p], f-float64(k))
}

type client struct {
	id     int
	local  *netcode.Local
	recv   []*netcode.Interpolator // receive timeline, per player (nil for self)
	adapt  []*netcode.Interpolator // server timeline, per player (nil for self)
	up     *link[netcode.PendingInput]
	down   *link[[]netcode.State]
	drive  func(now time.Duration) netcode.Input
	maxOff float64       // largest correction offset seen, units
	maxRun time.Duration // longest a correction stayed active
	runFor time.Duration
}

type lockstep struct {
	t       *testing.T
	contact netcode.ContactMode
	arena   netcode.Arena
	srv     *server
	clients []*client
	now     time.Duration

	residualFails int // reconciliations with a non-zero residual
	bracketed     [2]int
	worstRemote   float64
}

// newLockstep makes a world and one client per start pose. drive returns player p's input.
func newLockstep(t *testing.T, seed uint64, pr profile, contact netcode.ContactMode, starts []netcode.Pose,
	drive func(p int, rng *rand.Rand, now time.Duration) netcode.Input) *lockstep {
	w := &lockstep{t: t, contact: contact, arena: netcode.DefaultArena()}
	starts = append([]netcode.Pose(nil), starts...)
	for i := range starts {
		starts[i] = w.arena.Snap(starts[i]) // a server spawns tanks on the wire grid
	}
	w.srv = newServer(t, w.arena, contact, starts)
	adaptive := netcode.DefaultInterpConfig()
	adaptive.Timeline = netcode.ServerTimeline
	for i, p := range starts {
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		mk := func() *rand.Rand { return rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64())) }
		c := &client{
			id:    i,
			local: netcode.NewLocal(&w.arena, netcode.DefaultLocalConfig(), netcode.State{Pose: p}),
			recv:  make([]*netcode.Interpolator, len(starts)),
			adapt: make([]*netcode.Interpolator, len(starts)),
			up:    &link[netcode.PendingInput]{rng: mk(), latency: pr.rtt / 2, jitter: pr.jitter, rto: pr.rto(), loss: pr.loss},
			down:  &link[[]netcode.State]{rng: mk(), latency: pr.rtt / 2, jitter: pr.jitter, rto: pr.rto(), loss: pr.loss},
		}
		driver := mk()
		c.drive = func(now time.Duration) netcode.Input { return drive(i, driver, now) }
		for j := range starts {
			if j != i {
				c.recv[j] = netcode.NewInterpolator(netcode.DefaultInterpConfig())
				c.adapt[j] = netcode.NewInterpolator(adaptive)
			}
		}
		w.clients = append(w.clients, c)
	}
	return w
}

// run advances the world by d in 60 FPS frames, checking every frame.
func (w *lockstep) run(d time.Duration) {
	corr := netcode.DefaultCorrectionConfig()
	nextTick := time.Duration(w.srv.world.LastTick()+1) * netcode.StepInterval
	for end := w.now + d; w.now < end; {
		frameStart := w.now
		w.now = time.Duration(int64(w.now/fps60)+1) * fps60 // frame boundaries at i/60 s
		w.now = max(w.now, frameStart+1)
		frame := w.now - frameStart

		for ; nextTick <= w.now; nextTick += netcode.StepInterval {
			for _, c := range w.clients {
				for _, in := range c.up.recv(nextTick) {
					w.srv.apply(w.t, c.id, in)
				}
			}
			states := w.srv.step(w.t, nextTick)
			for _, c := range w.clients {
				c.down.send(nextTick, states)
			}
		}

		for _, c := range w.clients {
			others := w.pushAgainst(c)
			for range c.local.Advance(frame) {
				c.up.send(w.now, c.local.PredictAmong(c.drive(w.now), others))
			}
			for _, snap := range c.down.recv(w.now) {
				for p, s := range snap {
					if p != c.id {
						c.recv[p].Push(w.now, s)
						c.adapt[p].Push(w.now, s)
						continue
					}
					if c.local.Reconcile(s) {
						if lc := c.local.Counters(); lc.LastResidual != 0 || lc.LastResidualAngle != 0 {
							w.residualFails++
						}
					}
				}
			}
			w.checkRemotes(c)

			off := c.local.Offset()
			dist := math.Hypot(off.X, off.Y)
			if dist > corr.SnapDistance || math.Abs(off.Heading) > corr.SnapAngle {
				w.t.Fatalf("%v: player %d correction offset %v is beyond the snap threshold", w.now, c.id, off)
			}
			c.maxOff = max(c.maxOff, dist)
			if c.local.Correcting() {
				c.runFor += frame
				c.maxRun = max(c.maxRun, c.runFor)
			} else {
				c.runFor = 0
			}
		}
	}
}

// pushAgainst returns the other tanks c's contact pushes answer when contact is predicted:
// the newest state c was sent of each, when it is from one of the newest ticks c has (as
// the Go client does: client/contact.go); nil otherwise.
func (w *lockstep) pushAgainst(c *client) []netcode.Reach {
	if w.contact != netcode.ContactPredicted {
		return nil
	}
	var newest uint32
	for _, ip := range c.recv {
		if s, ok := newestOf(ip); ok {
			newest = max(newest, s.Tick)
		}
	}
	var out []netcode.Reach
	pending := uint32(len(c.local.Pending()))
	for _, ip := range c.recv {
		if s, ok := newestOf(ip); ok && s.Tick+2 >= newest {
			prev, hasPrev := ip.Previous()
			if at, ok := netcode.PushTarget(&w.arena, prev, s, hasPrev, pending+newest-s.Tick, netcode.Ticks(time.Second)); ok {
				out = append(out, at)
			}
		}
	}
	return out
}

// newestOf is ip's newest state; false for none (or for ip nil: the client's own slot).
func newestOf(ip *netcode.Interpolator) (netcode.State, bool) {
	if ip == nil {
		return netcode.State{}, false
	}
	return ip.Newest()
}

// stop lets every driver release the controls and runs the world for d more.
func (w *lockstep) stop(d time.Duration) {
	for _, c := range w.clients {
		c.drive = func(time.Duration) netcode.Input { return netcode.Input{} }
	}
	w.run(d)
}

// checkRemotes samples c's remote tanks on both timelines and compares every bracketed pose
// with the server's pose at the tick it claims to show.
func (w *lockstep) checkRemotes(c *client) {
	for p := range w.clients {
		if p == c.id {
			continue
		}
		for tl, ip := range [2]*netcode.Interpolator{c.recv[p], c.adapt[p]} {
			got, ok := ip.Sample(w.now)
			if !ok {
				continue
			}
			w.bracketed[tl]++
			want := w.srv.truth(p, ip.RenderTick())
			e := math.Max(got.Distance(want), math.Abs(got.AngleTo(want)))
			w.worstRemote = max(w.worstRemote, e)
			if e > 1e-9 {
				w.t.Fatalf("%v: client %d sees player %d at %v (tick %.3f, timeline %d), server had %v",
					w.now, c.id, p, got, ip.RenderTick(), tl, want)
			}
		}
	}
}

// holds returns the hold counts of all remote interpolators, per timeline.
func (w *lockstep) holds() (recv, adapt int) {
	for _, c := range w.clients {
		for p := range w.clients {
			if p != c.id {
				recv += c.recv[p].Counters().Holds
				adapt += c.adapt[p].Counters().Holds
			}
		}
	}
	return recv, adapt
}
