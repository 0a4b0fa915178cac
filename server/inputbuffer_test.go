package server

import (
	"tanknet/world"
	"testing"
	"time"

	"tanknet/netcode"
	"tanknet/wire"
)

// driver plays one client against a test world tick by tick: it queues inputs with their
// arrival times and counts what each tick applied.
type driver struct {
	t     *testing.T
	w     *game
	p     *player
	fp    *fakePeer
	spawn netcode.Pose
	now   time.Duration
	next  uint32
	all   []netcode.PendingInput
}

func newDriver(t *testing.T, w *game, name string) *driver {
	t.Helper()
	p, fp := mustJoin(t, w, 0, name)
	fp.arrived = map[uint32]time.Duration{}
	return &driver{t: t, w: w, p: p, fp: fp, spawn: p.tank.Pose()}
}

// send delivers n 50 ms steps that arrive early before the next tick.
func (d *driver) send(n int, early time.Duration) {
	for range n {
		d.next++
		in := netcode.PendingInput{Tick: d.next, Input: netcode.Input{Turn: 0.2, Throttle: 1}, Duration: netcode.StepInterval}
		d.fp.inputs = append(d.fp.inputs, in)
		d.fp.arrived[in.Tick] = d.now + netcode.StepInterval - early
		d.all = append(d.all, in)
	}
}

// step runs one tick and returns how many of the client's inputs it applied.
func (d *driver) step() int {
	d.now += netcode.StepInterval
	rec := d.w.step(d.now)
	n := 0
	for _, a := range rec.Applied {
		if a.Player == d.p.tank.ID() {
			n++
		}
	}
	return n
}

// checkExact lets the buffer drain, then fails unless every input was applied and the
// server's pose is exactly what a client replaying them from the spawn computes.
func (d *driver) checkExact() {
	d.t.Helper()
	for i := 0; i < 400 && d.p.tank.Ack() != d.next; i++ {
		d.step()
	}
	if d.p.tank.Ack() != d.next {
		d.t.Fatalf("ack %d after draining, want every input (%d) applied", d.p.tank.Ack(), d.next)
	}
	if want := netcode.Replay(&d.w.cfg.Arena, d.spawn, d.all); d.p.tank.Pose() != want {
		d.t.Errorf("pose %v, want exactly the client's replay %v", d.p.tank.Pose(), want)
	}
}

// ownReport decodes the client's own state from its newest snapshot frame.
func (d *driver) ownReport() netcode.InputReport {
	d.t.Helper()
	for _, ps := range decodeFrame(d.fp.snapshot).GetSnapshot().GetPlayers() {
		if ps.GetPlayerId() == d.p.tank.ID() {
			return wire.InputReportFromProto(ps)
		}
	}
	d.t.Fatalf("no state of player %d in its snapshot", d.p.tank.ID())
	return netcode.InputReport{}
}

// TestInputBuffer_OneInputPerTickFromBurstyArrivals: inputs that come in pairs every other
// tick (a client clock drifting against the tick's phase) move the tank once every tick
// from the buffer; on arrival they move it twice, then not at all: the stutter the buffer
// cures. Either way the pose is exactly the client's replay.
func TestInputBuffer_OneInputPerTickFromBurstyArrivals(t *testing.T) {
	for _, onArrival := range []bool{false, true} {
		d := newDriver(t, newTestWorld(t, func(c *Config) { c.InputOnArrival = onArrival }), "drifter")
		var applied []int
		for i := range 40 {
			if i%2 == 0 {
				d.send(2, 10*time.Millisecond)
			}
			applied = append(applied, d.step())
		}
		for i, n := range applied {
			want := 1
			if onArrival {
				want = 2 - 2*(i%2)
			}
			if n != want {
				t.Fatalf("on arrival %v: tick %d applied %d inputs, want %d (all: %v)", onArrival, i+1, n, want, applied)
			}
		}
		d.checkExact()
	}
}

// TestInputBuffer_LateInputHoldsTheTank: when a tick's input has not arrived the tank holds
// (nothing is invented for it), the snapshot says the tick starved, and the late input is
// applied next, so the pose stays the client's replay.
func TestInputBuffer_LateInputHoldsTheTank(t *testing.T) {
	d := newDriver(t, newTestWorld(t, nil), "late")
	for range 10 {
		d.send(1, 20*time.Millisecond)
		d.step()
	}
	if r := d.ownReport(); r.Starved || r.Wait != 20*time.Millisecond || r.Waiting != 0 {
		t.Errorf("report on time = %+v, want a 20 ms wait, none waiting, not starved", r)
	}
	before := d.p.tank.Pose()
	if n := d.step(); n != 0 || d.p.tank.Pose() != before {
		t.Fatalf("a tick without input applied %d and moved the tank %v -> %v, want it held", n, before, d.p.tank.Pose())
	}
	if r := d.ownReport(); !r.Starved {
		t.Errorf("report of the empty tick = %+v, want starved", r)
	}
	d.send(2, 5*time.Millisecond) // the late one and its successor
	if n := d.step(); n != 1 {
		t.Errorf("tick after the late input applied %d, want 1", n)
	}
	if r := d.ownReport(); r.Starved || r.Waiting != 1 || r.Wait != 5*time.Millisecond {
		t.Errorf("report after the late input = %+v, want a 5 ms wait with one waiting", r)
	}
	d.checkExact()
}

// TestInputBuffer_FloodGainsNoSpeed: a client that sends 100 steps (5 s) at once gets them
// no faster than the movement limits allow: MaxSimPerTick a tick, MaxSimPerSecond over any
// second, and never more simulated time than wall time plus TimeSlack; the rest wait, the
// snapshot says how many, and the pose is still the replay of what it sent.
func TestInputBuffer_FloodGainsNoSpeed(t *testing.T) {
	w := newTestWorld(t, nil)
	d := newDriver(t, w, "flood")
	for range 20 { // a second of honest play first
		d.send(1, 10*time.Millisecond)
		d.step()
	}
	d.send(100, 10*time.Millisecond)
	var perTick []int
	for range 30 {
		perTick = append(perTick, d.step())
	}
	if d.fp.kicked != "" {
		t.Fatalf("kicked: %q", d.fp.kicked)
	}
	for i, n := range perTick {
		if time.Duration(n)*netcode.StepInterval > w.cfg.MaxSimPerTick {
			t.Errorf("tick %d applied %d steps, more than MaxSimPerTick %v", i+1, n, w.cfg.MaxSimPerTick)
		}
	}
	for i := range perTick {
		sum := 0
		for _, n := range perTick[i:min(i+20, len(perTick))] {
			sum += n
		}
		if time.Duration(sum)*netcode.StepInterval > w.cfg.MaxSimPerSecond {
			t.Errorf("ticks %d..%d applied %d steps, more than MaxSimPerSecond %v", i+1, i+20, sum, w.cfg.MaxSimPerSecond)
		}
	}
	if limit := d.now + w.cfg.TimeSlack; d.p.tank.Granted() > limit {
		t.Errorf("granted %v of simulated time by %v, more than wall time plus slack (%v)", d.p.tank.Granted(), d.now, limit)
	}
	if r := d.ownReport(); r.Waiting != d.p.tank.Waiting() || r.Waiting < 50 {
		t.Errorf("report after the flood says %d waiting, want the queue's %d (the 5 s sent ahead of time wait)", r.Waiting, d.p.tank.Waiting())
	}
	d.checkExact()
}

// TestInputBuffer_EachClientChooses: a client that asks for its inputs on arrival gets them
// so; the others keep the server's buffer.
func TestInputBuffer_EachClientChooses(t *testing.T) {
	w := newTestWorld(t, nil)
	buffered, eager := newDriver(t, w, "buffered"), newDriver(t, w, "eager")
	eager.fp.mode = world.ModeOnArrival
	buffered.send(3, 10*time.Millisecond)
	eager.send(3, 10*time.Millisecond)
	buffered.now, eager.now = buffered.now+netcode.StepInterval, eager.now+netcode.StepInterval
	rec := w.step(buffered.now)
	got := map[uint32]int{}
	for _, a := range rec.Applied {
		got[a.Player]++
	}
	if got[buffered.p.tank.ID()] != 1 || got[eager.p.tank.ID()] != 3 {
		t.Errorf("applied %v, want 1 for the buffered player %d and 3 for the one on arrival %d", got, buffered.p.tank.ID(), eager.p.tank.ID())
	}
}

// The room's input buffer figures count what the ticks did: a late input starves its tick,
// the backlog after it is applied two at once when it overflows the buffer, and every
// applied input's wait and the depth after each player-tick are observed.
func TestInputBuffer_RoomFigures(t *testing.T) {
	w := newTestWorld(t, nil)
	figures := newBufferStats()
	w.countBuffer(figures)
	d := newDriver(t, w, "counted")
	d.send(1, 10*time.Millisecond)
	d.step() // the first applied input: not yet a player-tick
	d.step() // nothing sent: starved
	d.send(world.MaxBuffered+3, 10*time.Millisecond)
	doubled := 0
	for range 5 {
		if d.step() > 1 {
			doubled++
		}
	}
	got := figures.snapshot()
	if got.PlayerTicks != 6 || got.Starved != 1 || got.Doubled != uint64(doubled) || doubled == 0 {
		t.Errorf("player-ticks %d, starved %d, doubled %d; want 6, 1 and %d (> 0)", got.PlayerTicks, got.Starved, got.Doubled, doubled)
	}
	if applied := uint64(d.p.tank.Ack()); got.Wait.Count != applied {
		t.Errorf("%d waits observed, want one per applied input (%d)", got.Wait.Count, applied)
	}
	if got.Depth.Count != got.PlayerTicks {
		t.Errorf("%d depths observed, want one per player-tick (%d)", got.Depth.Count, got.PlayerTicks)
	}
}
